package dev.lockstep.sample;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Draws {@code dashboards/lockstep-workers.json} as a PNG from a live run: the sample in
 * service mode on a temporary development broker, fed orders at a rising rate, its
 * Prometheus scrape taken every second, each panel's queries evaluated over those scrapes
 * (the small part of PromQL the dashboard uses: {@code sum/max by}, {@code rate},
 * {@code increase}, a division) and drawn as Grafana lays the panels out. Run its
 * {@code main} on the module's test class path (docs/observability.md has the
 * commands); arguments: dashboard JSON, output PNG, seconds.
 */
final class DashboardSnapshot {

	private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][\\w:]*)(\\{(.*)\\})? (\\S+)$");

	private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

	private static final Color[] PALETTE = { new Color(0x73BF69), new Color(0xF2CC0C), new Color(0x5794F2),
			new Color(0xFF9830), new Color(0xF2495C), new Color(0xB877D9), new Color(0x8AB8FF), new Color(0xFADE2A) };

	// Each scrape: metric name -> series (labels -> value); and its time in seconds.
	private final List<Map<String, Map<Map<String, String>, Double>>> scrapes = new ArrayList<>();

	private final List<Double> times = new ArrayList<>();

	private DashboardSnapshot() {
	}

	public static void main(String[] args) throws Exception {
		Path dashboard = Path.of((args.length > 0) ? args[0] : "../dashboards/lockstep-workers.json");
		Path png = Path.of((args.length > 1) ? args[1] : "../dashboards/lockstep-workers.png");
		int seconds = (args.length > 2) ? Integer.parseInt(args[2]) : 90;
		DashboardSnapshot snapshot = new DashboardSnapshot();
		try (ConfigurableApplicationContext context = SpringApplication.run(SampleApplication.class,
				"--lockstep.dev.embedded-broker.temporary=true", "--server.port=0")) {
			snapshot.record(context, seconds);
		}
		snapshot.draw(new ObjectMapper().readTree(dashboard.toFile()), png);
		System.exit(0);
	}

	@SuppressWarnings("unchecked")
	private void record(ConfigurableApplicationContext context, int seconds) throws InterruptedException {
		KafkaTemplate<String, Order> orders = context.getBean("orders", KafkaTemplate.class);
		PrometheusMeterRegistry prometheus = context.getBean(PrometheusMeterRegistry.class);
		AtomicLong next = new AtomicLong(1);
		long started = System.nanoTime();
		ScheduledExecutorService feeder = Executors.newSingleThreadScheduledExecutor();
		// Every 100 ms a transaction of orders, rising from 50 to 500 per batch; every 50th a tombstone.
		feeder.scheduleAtFixedRate(() -> {
			double progress = (System.nanoTime() - started) / (seconds * 1e9);
			int batch = 50 + (int) (450 * Math.min(1, progress));
			orders.executeInTransaction((template) -> {
				for (int i = 0; i < batch; i++) {
					long id = next.getAndIncrement();
					template.send("cookbook-orders", "order-" + id,
							(id % 50 == 0) ? null : new Order(id, (id % 2 == 0) ? "paid" : "Refunded", id));
				}
				return null;
			});
		}, 0, 100, TimeUnit.MILLISECONDS);
		try {
			for (int second = 0; second < seconds; second++) {
				this.times.add((System.nanoTime() - started) / 1e9);
				this.scrapes.add(parse(prometheus.scrape()));
				Thread.sleep(1000);
			}
		}
		finally {
			feeder.shutdownNow();
			feeder.awaitTermination(10, TimeUnit.SECONDS);
		}
	}

	private static Map<String, Map<Map<String, String>, Double>> parse(String scrape) {
		Map<String, Map<Map<String, String>, Double>> metrics = new HashMap<>();
		for (String line : scrape.split("\n")) {
			Matcher sample = SAMPLE.matcher(line);
			if (line.startsWith("#") || !sample.matches()) {
				continue;
			}
			Map<String, String> labels = new TreeMap<>();
			if (sample.group(3) != null) {
				Matcher label = LABEL.matcher(sample.group(3));
				while (label.find()) {
					labels.put(label.group(1), label.group(2));
				}
			}
			metrics.computeIfAbsent(sample.group(1), (name) -> new HashMap<>())
				.put(labels, Double.parseDouble(sample.group(4)));
		}
		return metrics;
	}

	// Evaluation: a query's series over the scrapes (labels -> one value per scrape, NaN when absent).

	private Map<Map<String, String>, double[]> evaluate(String query) {
		String expression = query.trim();
		int division = topLevel(expression, '/');
		if (division >= 0) {
			Map<Map<String, String>, double[]> left = evaluate(expression.substring(0, division));
			Map<Map<String, String>, double[]> right = evaluate(expression.substring(division + 1));
			Map<Map<String, String>, double[]> quotient = new LinkedHashMap<>();
			left.forEach((labels, values) -> {
				double[] divisor = right.get(labels);
				double[] result = new double[values.length];
				for (int i = 0; i < values.length; i++) {
					result[i] = (divisor == null || divisor[i] == 0) ? Double.NaN : values[i] / divisor[i];
				}
				quotient.put(labels, result);
			});
			return quotient;
		}
		Matcher aggregation = Pattern.compile("^(sum|max) by \\(([^)]*)\\) \\((.*)\\)$").matcher(expression);
		if (aggregation.matches()) {
			List<String> by = List.of(aggregation.group(2).split(",\\s*"));
			Map<Map<String, String>, double[]> grouped = new LinkedHashMap<>();
			evaluate(aggregation.group(3)).forEach((labels, values) -> {
				Map<String, String> key = new TreeMap<>();
				by.forEach((label) -> key.put(label, labels.getOrDefault(label, "")));
				double[] into = grouped.computeIfAbsent(key, (k) -> filled(Double.NaN));
				for (int i = 0; i < values.length; i++) {
					if (!Double.isNaN(values[i])) {
						into[i] = Double.isNaN(into[i]) ? values[i]
								: aggregation.group(1).equals("sum") ? into[i] + values[i] : Math.max(into[i], values[i]);
					}
				}
			});
			return grouped;
		}
		Matcher function = Pattern.compile("^(rate|increase)\\((\\w+)(\\{[^}]*\\})?\\[[^]]*\\]\\)$").matcher(expression);
		if (function.matches()) {
			double perSecondToResult = function.group(1).equals("increase") ? 60 : 1;
			Map<Map<String, String>, double[]> rates = new LinkedHashMap<>();
			selector(function.group(2)).forEach((labels, values) -> rates.put(labels, rate(values, perSecondToResult)));
			return rates;
		}
		Matcher selector = Pattern.compile("^(\\w+)(\\{[^}]*\\})?$").matcher(expression);
		if (selector.matches()) {
			return selector(selector.group(1));
		}
		throw new IllegalArgumentException("Query not understood: " + query);
	}

	// Label matchers are the dashboard's $worker variable: "All", so every series matches.
	private Map<Map<String, String>, double[]> selector(String name) {
		Map<Map<String, String>, double[]> series = new LinkedHashMap<>();
		for (int i = 0; i < this.scrapes.size(); i++) {
			int at = i;
			this.scrapes.get(i)
				.getOrDefault(name, Map.of())
				.forEach((labels, value) -> series.computeIfAbsent(labels, (key) -> filled(Double.NaN))[at] = value);
		}
		return series;
	}

	// A per-second rate over a 5-scrape window, as Grafana's $__rate_interval would.
	private double[] rate(double[] counter, double scale) {
		double[] rates = filled(Double.NaN);
		for (int i = 1; i < counter.length; i++) {
			int from = Math.max(0, i - 5);
			if (!Double.isNaN(counter[i]) && !Double.isNaN(counter[from])) {
				rates[i] = scale * Math.max(0, counter[i] - counter[from]) / (this.times.get(i) - this.times.get(from));
			}
		}
		return rates;
	}

	private double[] filled(double value) {
		double[] values = new double[this.scrapes.size()];
		Arrays.fill(values, value);
		return values;
	}

	private static int topLevel(String expression, char operator) {
		int depth = 0;
		for (int i = 0; i < expression.length(); i++) {
			char c = expression.charAt(i);
			depth += (c == '(' || c == '{' || c == '[') ? 1 : (c == ')' || c == '}' || c == ']') ? -1 : 0;
			if (depth == 0 && c == operator) {
				return i;
			}
		}
		return -1;
	}

	// Drawing: Grafana's 24-column grid, dark theme.

	private void draw(JsonNode dashboard, Path png) throws IOException {
		int columnWidth = 70;
		int rowHeight = 36;
		int top = 48;
		int height = top;
		for (JsonNode panel : dashboard.get("panels")) {
			JsonNode grid = panel.get("gridPos");
			height = Math.max(height, top + (grid.get("y").asInt() + grid.get("h").asInt()) * rowHeight);
		}
		BufferedImage image = new BufferedImage(24 * columnWidth, height + 8, BufferedImage.TYPE_INT_RGB);
		Graphics2D g = image.createGraphics();
		g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
		g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
		g.setColor(new Color(0x111217));
		g.fillRect(0, 0, image.getWidth(), image.getHeight());
		g.setColor(new Color(0xCCCCDC));
		g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
		g.drawString(dashboard.get("title").asText() + "  (sample app, " + this.scrapes.size()
				+ " s of rising input, one scrape a second)", 12, 30);
		for (JsonNode panel : dashboard.get("panels")) {
			JsonNode grid = panel.get("gridPos");
			drawPanel(g, panel, grid.get("x").asInt() * columnWidth + 6, top + grid.get("y").asInt() * rowHeight + 6,
					grid.get("w").asInt() * columnWidth - 12, grid.get("h").asInt() * rowHeight - 12);
		}
		g.dispose();
		ImageIO.write(image, "png", png.toFile());
		System.out.println("Wrote " + png.toAbsolutePath());
	}

	private void drawPanel(Graphics2D g, JsonNode panel, int x, int y, int width, int height) {
		g.setColor(new Color(0x181B1F));
		g.fillRoundRect(x, y, width, height, 6, 6);
		g.setColor(new Color(0x2C3235));
		g.drawRoundRect(x, y, width, height, 6, 6);
		g.setColor(new Color(0xCCCCDC));
		g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
		g.drawString(panel.get("title").asText(), x + 10, y + 20);
		String unit = panel.at("/fieldConfig/defaults/unit").asText("short");
		Map<String, double[]> lines = new LinkedHashMap<>();
		for (JsonNode target : panel.get("targets")) {
			String legend = target.path("legendFormat").asText("");
			evaluate(target.get("expr").asText()).forEach((labels, values) -> lines.put(legend(legend, labels), values));
		}
		double max = 0;
		for (double[] values : lines.values()) {
			for (double value : values) {
				max = Double.isNaN(value) ? max : Math.max(max, value);
			}
		}
		max = (max == 0) ? 1 : max * 1.1;
		int legendHeight = 16 * ((lines.size() + 1) / 2);
		int plotX = x + 70;
		int plotY = y + 32;
		int plotWidth = width - 84;
		// Title above; x-axis labels and the legend below.
		int plotHeight = height - 32 - 26 - legendHeight;
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
		for (int tick = 0; tick <= 4; tick++) {
			int tickY = plotY + plotHeight - tick * plotHeight / 4;
			g.setColor(new Color(0x22252B));
			g.drawLine(plotX, tickY, plotX + plotWidth, tickY);
			g.setColor(new Color(0x9FA7B3));
			g.drawString(format(max * tick / 4, unit), x + 8, tickY + 4);
		}
		double span = Math.max(1, this.times.get(this.times.size() - 1));
		for (int second = 0; second <= span; second += 15) {
			int tickX = plotX + (int) (second / span * plotWidth);
			g.drawString(second + " s", tickX - 8, plotY + plotHeight + 14);
		}
		int index = 0;
		for (Map.Entry<String, double[]> line : lines.entrySet()) {
			Color color = PALETTE[index % PALETTE.length];
			g.setColor(color);
			g.setStroke(new BasicStroke(1.6f));
			double[] values = line.getValue();
			for (int i = 1; i < values.length; i++) {
				if (!Double.isNaN(values[i - 1]) && !Double.isNaN(values[i])) {
					g.drawLine(plotX + (int) (this.times.get(i - 1) / span * plotWidth),
							plotY + plotHeight - (int) (values[i - 1] / max * plotHeight),
							plotX + (int) (this.times.get(i) / span * plotWidth),
							plotY + plotHeight - (int) (values[i] / max * plotHeight));
				}
			}
			int legendX = x + 10 + (index % 2) * (width / 2);
			int legendY = y + height - legendHeight + 16 * (index / 2);
			g.fillRect(legendX, legendY - 8, 12, 3);
			g.setColor(new Color(0xCCCCDC));
			g.drawString(line.getKey(), legendX + 18, legendY - 3);
			index++;
		}
	}

	private static String legend(String format, Map<String, String> labels) {
		String legend = format;
		for (Map.Entry<String, String> label : labels.entrySet()) {
			legend = legend.replace("{{" + label.getKey() + "}}", label.getValue());
		}
		return legend;
	}

	private static String format(double value, String unit) {
		return switch (unit) {
			case "s" -> (value < 1) ? String.format(Locale.ROOT, "%.0f ms", value * 1000)
					: String.format(Locale.ROOT, "%.1f s", value);
			case "ops" -> (value >= 1000) ? String.format(Locale.ROOT, "%.1fk/s", value / 1000)
					: String.format(Locale.ROOT, "%.0f/s", value);
			default -> (value >= 1000) ? String.format(Locale.ROOT, "%.1fk", value / 1000)
					: String.format(Locale.ROOT, "%.1f", value);
		};
	}

}
