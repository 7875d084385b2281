package dev.lockstep.registry;

import java.util.List;
import java.util.Map;

import dev.lockstep.registry.internal.Redaction;
import dev.lockstep.registry.kafka.RegistrySerdeConfig;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A registry URL that embeds a password never reaches an exception message whole, parsable
 * or not.
 */
class RegistryUrlRedactionTests {

	private static final List<String> URLS_WITH_PASSWORDS = List.of(
			// Unparsable: a space in the authority, an illegal character in the user information.
			"http://svc:hunter2@registry .example:8081", "http://svc:hun^ter2@registry.example:8081",
			"https://svc:hunter2@registry.example:8081/path with space",
			// Parsable, but refused: credentials, an '@' in the password (no host), a query.
			"http://svc:hunter2@registry.example:8081", "http://svc:hun@ter2@registry.example:8081",
			"ftp://svc:hunter2@registry.example", "http://svc:hunter2@registry.example:8081/?x=1");

	@Test
	void refusedRegistryUrlsAreReportedWithoutTheirPassword() {
		for (String url : URLS_WITH_PASSWORDS) {
			Throwable failure = catchThrowable(() -> RegistryClient.builder(url).build());
			assertThat(failure).as(url).isInstanceOf(IllegalArgumentException.class);
			assertThat(failure.getMessage()).as(url)
				.startsWith("Invalid registry")
				.doesNotContain("hunter2", "hun^ter2", "hun@ter2", "ter2")
				.contains("svc:****@");
		}
	}

	@Test
	void refusedSerdeRegistryUrlsAreReportedWithoutTheirPassword() {
		for (String url : URLS_WITH_PASSWORDS) {
			Throwable failure = catchThrowable(
					() -> RegistrySerdeConfig.of(Map.of("schema.registry.url", url), false).createClient());
			assertThat(failure).as(url).isInstanceOf(ConfigException.class);
			assertThat(failure.getMessage()).as(url).doesNotContain("ter2");
		}
	}

	@Test
	void redactionKeepsTheUserAndHidesThePassword() {
		assertThat(Redaction.url("http://svc:hunter2@registry:8081/x")).isEqualTo("http://svc:****@registry:8081/x");
		assertThat(Redaction.url("http://token@registry:8081")).isEqualTo("http://****@registry:8081");
		assertThat(Redaction.url("svc:hun@ter2@registry:8081")).isEqualTo("svc:****@registry:8081");
		assertThat(Redaction.url("https://registry:8081")).isEqualTo("https://registry:8081");
	}

}
