package dev.lockstep.sample;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The cookbook's order normalization as a Spring Boot application. With a command as the
 * first argument it runs that command and exits: {@code seed}, {@code transform},
 * {@code verify}, {@code redrive} (send the quarantined orders back to the input), or
 * {@code demo} (seed, transform and verify on a fresh temporary broker). Without one it
 * runs the worker as a long-lived service with actuator health, metrics and Prometheus.
 */
@SpringBootApplication
public class SampleApplication {

	/**
	 * The one-shot commands.
	 */
	enum Command {

		SEED, TRANSFORM, VERIFY, REDRIVE, DEMO;

		static Optional<Command> of(String[] args) {
			if (args.length == 0 || args[0].startsWith("-")) {
				return Optional.empty();
			}
			try {
				return Optional.of(valueOf(args[0].toUpperCase(Locale.ROOT)));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException(
						"Unknown command '" + args[0] + "': expected seed, transform, verify, redrive or demo");
			}
		}

		Map<String, Object> defaults() {
			Map<String, Object> defaults = new HashMap<>(Map.of("logging.level.root", "ERROR",
					"lockstep.workers.normalizer.auto-startup", "false"));
			if (this == TRANSFORM || this == DEMO) {
				// Exactly three inputs, and a clear failure after 60 s without input.
				defaults.put("lockstep.workers.normalizer.stop-after-records", "3");
				defaults.put("lockstep.workers.normalizer.idle-timeout", "60s");
			}
			if (this == DEMO) {
				defaults.put("lockstep.dev.embedded-broker.temporary", "true");
				defaults.put("lockstep.dev.embedded-registry.temporary", "true");
			}
			return defaults;
		}

	}

	public static void main(String[] args) {
		Optional<Command> command;
		try {
			command = Command.of(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.exit(2);
			return;
		}
		if (command.isEmpty()) {
			SpringApplication.run(SampleApplication.class, args);
			return;
		}
		System.exit(run(command.get(), Arrays.copyOfRange(args, 1, args.length)));
	}

	/**
	 * Run one command in its own application context.
	 * @param command the command
	 * @param args further arguments, such as {@code --spring.kafka.bootstrap-servers=...}
	 * @return the exit code: 0 on success
	 */
	static int run(Command command, String... args) {
		SpringApplication application = new SpringApplication(SampleApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setBannerMode(Banner.Mode.OFF);
		application.setLogStartupInfo(false);
		application.setDefaultProperties(command.defaults());
		try (ConfigurableApplicationContext context = application.run(args)) {
			SampleCommands commands = context.getBean(SampleCommands.class);
			switch (command) {
				case SEED -> commands.seed();
				case TRANSFORM -> commands.transform();
				case VERIFY -> commands.verify();
				case REDRIVE -> commands.redrive();
				case DEMO -> {
					commands.seed();
					commands.transform();
					commands.verify();
				}
			}
			return 0;
		}
		catch (RuntimeException ex) {
			System.err.println(command.name().toLowerCase(Locale.ROOT) + " failed: " + describe(ex));
			return 1;
		}
	}

	private static String describe(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return (cause == failure || cause.getMessage() == null) ? String.valueOf(failure.getMessage())
				: failure.getMessage() + " (" + cause.getMessage() + ")";
	}

}
