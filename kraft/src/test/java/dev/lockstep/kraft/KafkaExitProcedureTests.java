package dev.lockstep.kraft;

import org.apache.kafka.common.utils.Exit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Kafka's exit and halt requests throw once the procedure is set, on the Kafka line this
 * build compiles against (the getting-started row on Kafka 4.4 runs it on the moved class).
 */
class KafkaExitProcedureTests {

	@AfterEach
	void restoreKafkasProcedures() {
		Exit.resetExitProcedure();
		Exit.resetHaltProcedure();
	}

	@Test
	void kafkasExitAndHaltThrowNamingTheBrokerTheStatusAndTheMessage() {
		KafkaExitProcedure.throwInstead("Test broker");
		assertThatIllegalStateException().isThrownBy(() -> Exit.exit(3, "log directory failed"))
			.withMessage("Test broker: Kafka asked to end the JVM with status 3: log directory failed");
		assertThatIllegalStateException().isThrownBy(() -> Exit.halt(1, "fatal"))
			.withMessageContaining("status 1: fatal");
	}

}
