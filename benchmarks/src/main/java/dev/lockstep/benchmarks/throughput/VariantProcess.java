package dev.lockstep.benchmarks.throughput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run's JVM, started from the harness's own class path with the same options for
 * every variant.
 */
final class VariantProcess {

	/** The same heap and collector for every variant. */
	static final List<String> JVM_OPTIONS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC");

	private static final Pattern RESULT = Pattern
		.compile("RESULT seconds=([0-9.]+) records=([0-9]+) cpu=([0-9.]+) window-cpu=([0-9.]+)");

	private final Process process;

	private final Path log;

	private final long startedNanos = System.nanoTime();

	private VariantProcess(Process process, Path log) {
		this.process = process;
		this.log = log;
	}

	static VariantProcess start(RunSpec spec) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(JVM_OPTIONS);
		String jfr = System.getProperty("bench.jfr", "");
		if (!jfr.isBlank()) {
			// Profile the run: one JFR recording per run, named by its group.
			command.add("-XX:StartFlightRecording=settings=profile,filename="
					+ Path.of(jfr, spec.group() + ".jfr").toAbsolutePath());
		}
		if (!jfr.isBlank()) {
			command.add("-Dbench.jfr=" + Path.of(jfr).toAbsolutePath());
		}
		command.add("-Dbench.sample-jar=" + SampleJarVariant.jar());
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), VariantMain.class.getName()));
		command.addAll(spec.toArgs());
		Path log = Files.createTempFile("lockstep-bench-" + spec.variant().label() + "-", ".log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		return new VariantProcess(process, log);
	}

	/**
	 * Wait for the run to end and read its figures.
	 * @return the measurement
	 */
	Measurement await() throws Exception {
		if (!this.process.waitFor(15, TimeUnit.MINUTES)) {
			this.process.destroyForcibly().waitFor();
			throw new IllegalStateException("Run did not end within 15 minutes; see " + this.log);
		}
		double wall = (System.nanoTime() - this.startedNanos) / 1e9;
		String output = Files.readString(this.log);
		Matcher result = RESULT.matcher(output);
		if (this.process.exitValue() != 0 || !result.find()) {
			throw new IllegalStateException("Run failed (exit " + this.process.exitValue() + "):\n" + output);
		}
		// Where the run's CPU went, thread by thread, before its RUN line.
		output.lines().filter((line) -> line.startsWith("THREADS ")).forEach(System.out::println);
		Files.delete(this.log);
		return new Measurement(Double.parseDouble(result.group(1)), Long.parseLong(result.group(2)), wall,
				Double.parseDouble(result.group(3)), Double.parseDouble(result.group(4)));
	}

	/**
	 * What one run measured.
	 *
	 * @param seconds the measured window: first record (or end of the warm-up) to last commit
	 * @param records the records committed in the window
	 * @param wallSeconds the whole process, start to exit
	 * @param cpuSeconds CPU time of the whole process
	 * @param windowCpuSeconds CPU time of the process in the window
	 */
	record Measurement(double seconds, long records, double wallSeconds, double cpuSeconds, double windowCpuSeconds) {

		double recordsPerSecond() {
			return this.records / this.seconds;
		}

		double cpuMicrosPerRecord() {
			return this.windowCpuSeconds / this.records * 1e6;
		}

	}

}
