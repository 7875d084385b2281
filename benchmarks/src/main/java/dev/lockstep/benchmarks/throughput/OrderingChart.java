package dev.lockstep.benchmarks.throughput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Draws the ordering harness's medians as an SVG bar chart: one panel per workload, a bar
 * per variant, records per second written beside each bar. Lockstep's bars in one
 * colour, the others in another.
 */
final class OrderingChart {

	private static final int WIDTH = 900;

	private static final int LABEL_WIDTH = 270;

	private static final int BAR_AREA = 500;

	private static final int ROW = 26;

	private static final int TITLE = 34;

	/**
	 * Write the chart.
	 * @param path where
	 * @param firstTitle the first panel's title
	 * @param first the first panel's records per second, by variant
	 * @param secondTitle the second panel's title
	 * @param second the second panel's records per second, by variant
	 * @throws IOException if the file cannot be written
	 */
	void write(Path path, String firstTitle, Map<String, Double> first, String secondTitle,
			Map<String, Double> second) throws IOException {
		int height = 2 * TITLE + (first.size() + second.size()) * ROW + 40;
		StringBuilder svg = new StringBuilder();
		svg.append(String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
						+ "font-size=\"13\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
				WIDTH, height));
		int y = panel(svg, 10, firstTitle, first);
		panel(svg, y + 10, secondTitle, second);
		svg.append("</svg>\n");
		Files.writeString(path, svg);
	}

	private static int panel(StringBuilder svg, int top, String title, Map<String, Double> rates) {
		svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" font-weight=\"bold\" font-size=\"15\">%s"
				+ " (records/s, median)</text>%n", top + 20, escape(title)));
		double max = rates.values().stream().mapToDouble(Double::doubleValue).max().orElse(1);
		int y = top + TITLE;
		for (Map.Entry<String, Double> entry : rates.entrySet()) {
			double width = Math.max(1, entry.getValue() / max * BAR_AREA);
			String colour = entry.getKey().startsWith("lockstep") ? "#2b6cb0" : "#a0aec0";
			svg.append(String.format(Locale.ROOT,
					"<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n"
							+ "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n"
							+ "<text x=\"%.1f\" y=\"%d\">%,.0f</text>%n",
					LABEL_WIDTH - 8, y + 16, escape(entry.getKey()), LABEL_WIDTH, y + 3, width, ROW - 8, colour,
					LABEL_WIDTH + width + 6, y + 16, entry.getValue()));
			y += ROW;
		}
		return y;
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
	}

}
