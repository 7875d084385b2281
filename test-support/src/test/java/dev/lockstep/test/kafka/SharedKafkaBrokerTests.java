package dev.lockstep.test.kafka;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * Runs two test classes through the JUnit launcher, as a build's test JVM runs its
 * classes: they get one broker, a working one, closed when the run ends.
 */
class SharedKafkaBrokerTests {

	// What the classes below were given, in the order they asked.
	static final List<KafkaBroker> given = new CopyOnWriteArrayList<>();

	@Test
	void testClassesOfOneRunShareOneWorkingBrokerClosedWhenTheRunEnds() {
		given.clear();
		LauncherDiscoveryRequest classes = request()
			.selectors(selectClass(FirstClass.class), selectClass(SecondClass.class))
			.build();
		SummaryGeneratingListener summary = new SummaryGeneratingListener();
		LauncherFactory.create().execute(classes, summary);
		TestExecutionSummary result = summary.getSummary();
		assertThat(result.getFailures()).isEmpty();
		assertThat(result.getTestsSucceededCount()).isEqualTo(2);
		assertThat(given).hasSize(3).allSatisfy((broker) -> assertThat(broker).isSameAs(given.get(0)));
		Path dataDirectory = ((InJvmKafkaBroker) given.get(0)).dataDirectory();
		assertThat(Files.exists(dataDirectory)).as("closed when the run ended").isFalse();
	}

	@ExtendWith(SharedKafkaBroker.class)
	static class FirstClass {

		@BeforeAll
		static void connect(KafkaBroker broker) {
			given.add(broker);
		}

		@Test
		void commitsAndAborts(KafkaBroker broker) {
			given.add(broker);
			new TransactionalRoundTrip(broker).assertCommittedVisibleAndAbortedInvisible();
		}

	}

	@ExtendWith(SharedKafkaBroker.class)
	static class SecondClass {

		@Test
		void findsTheBrokerRunning(KafkaBroker broker) {
			given.add(broker);
			assertThat(((InJvmKafkaBroker) broker).dataDirectory()).isDirectory();
		}

	}

}
