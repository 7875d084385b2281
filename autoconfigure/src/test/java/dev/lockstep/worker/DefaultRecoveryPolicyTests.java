package dev.lockstep.worker;

import java.util.concurrent.ExecutionException;

import dev.lockstep.worker.RecoveryPolicy.Recovery;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DefaultRecoveryPolicyTests {

	private final DefaultRecoveryPolicy policy = new DefaultRecoveryPolicy();

	@Test
	void fencingStopsTheSlot() {
		assertThat(this.policy.classify(new ProducerFencedException("fenced"))).isEqualTo(Recovery.FENCED);
	}

	@Test
	void timeoutsAreRetried() {
		assertThat(this.policy.classify(new TimeoutException("slow"))).isEqualTo(Recovery.RETRY);
	}

	@Test
	void abortableFailuresAbortAndReplay() {
		assertThat(this.policy.classify(new TransactionAbortableException("abort"))).isEqualTo(Recovery.ABORT);
		assertThat(this.policy.classify(new CommitFailedException("rebalanced"))).isEqualTo(Recovery.ABORT);
		assertThat(this.policy.classify(new SerializationException("registry down"))).isEqualTo(Recovery.ABORT);
		// After a transaction timeout; if another instance fenced us, the abort says so.
		assertThat(this.policy.classify(new InvalidProducerEpochException("timed out"))).isEqualTo(Recovery.ABORT);
		assertThat(this.policy.classify(new IllegalStateException("processor bug"))).isEqualTo(Recovery.ABORT);
	}

	@Test
	void otherKafkaErrorsReplaceTheProducer() {
		assertThat(this.policy.classify(new OutOfOrderSequenceException("sequence"))).isEqualTo(Recovery.REPLACE_PRODUCER);
		assertThat(this.policy.classify(new AuthorizationException("denied"))).isEqualTo(Recovery.REPLACE_PRODUCER);
		assertThat(this.policy.classify(new UnsupportedVersionException("old"))).isEqualTo(Recovery.REPLACE_PRODUCER);
		assertThat(this.policy.classify(new KafkaException("unknown"))).isEqualTo(Recovery.REPLACE_PRODUCER);
	}

	@Test
	void failedSendsAreClassifiedByTheirCause() {
		assertThat(this.policy.classify(new ExecutionException(new TimeoutException("send timed out"))))
			.isEqualTo(Recovery.RETRY);
		assertThat(this.policy.classify(new ExecutionException(new ProducerFencedException("fenced"))))
			.isEqualTo(Recovery.FENCED);
	}

}
