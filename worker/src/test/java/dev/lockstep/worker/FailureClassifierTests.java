package dev.lockstep.worker;

import java.util.List;
import java.util.concurrent.ExecutionException;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryException;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.StaleMemberEpochException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.UnknownTopicIdException;
import org.apache.kafka.common.errors.UnreleasedInstanceIdException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FailureClassifierTests {

	private final FailureClassifier classifier = new FailureClassifier(List.of(InvalidDataException.class));

	@Test
	void processorRejectionAndDeclaredInvalidDataAreInvalidInput() {
		assertThat(this.classifier.classify(new InvalidRecordException("no price"))).isEqualTo(FailureCategory.INVALID_INPUT);
		assertThat(this.classifier.classify(new InvalidDataException("bad magic byte")))
			.isEqualTo(FailureCategory.INVALID_INPUT);
		// Only the failure itself says so: an application failure that happens to wrap one
		// (a lookup inside the processor) is not the input record's fault.
		assertThat(this.classifier.classify(new IllegalStateException("wrapped", new InvalidRecordException("no price"))))
			.isEqualTo(FailureCategory.ABORTABLE);
	}

	@Test
	void registryOutageWhileEncodingOrDecodingIsAbortableNeverInvalidInput() {
		RegistryException outage = new RegistryException("I/O failure: java.net.ConnectException", 0, 0, true, null);
		assertThat(this.classifier.classify(new SerializationException("Could not resolve the schema id", outage)))
			.isEqualTo(FailureCategory.ABORTABLE);
		RegistryException bare404 = new RegistryException("HTTP 404 Not Found", 404, 404, false, null);
		assertThat(this.classifier.classify(new SerializationException("Could not fetch writer schema 7", bare404)))
			.isEqualTo(FailureCategory.ABORTABLE);
	}

	@Test
	void fencingIsFenced() {
		assertThat(this.classifier.classify(new ProducerFencedException("fenced"))).isEqualTo(FailureCategory.FENCED);
		assertThat(this.classifier.classify(new KafkaException("Cannot execute transactional method because we are in an error state",
				new ProducerFencedException("fenced")))).isEqualTo(FailureCategory.FENCED);
	}

	@Test
	void timeoutsAreRetriable() {
		assertThat(this.classifier.classify(new TimeoutException("slow"))).isEqualTo(FailureCategory.RETRIABLE);
		assertThat(this.classifier.classify(new ExecutionException(new TimeoutException("slow"))))
			.isEqualTo(FailureCategory.RETRIABLE);
	}

	@Test
	void producerErrorStateOverATimedOutSendIsAbortableNotRetriable() {
		KafkaException errorState = new KafkaException(
				"Cannot execute transactional method because we are in an error state", new TimeoutException("expired"));
		assertThat(this.classifier.classify(errorState)).isEqualTo(FailureCategory.ABORTABLE);
	}

	@Test
	void abortableTransactionErrorsAndApplicationFailuresAreAbortable() {
		assertThat(this.classifier.classify(new TransactionAbortableException("abort"))).isEqualTo(FailureCategory.ABORTABLE);
		assertThat(this.classifier.classify(new CommitFailedException("rebalanced"))).isEqualTo(FailureCategory.ABORTABLE);
		assertThat(this.classifier.classify(new InvalidProducerEpochException("timed out")))
			.isEqualTo(FailureCategory.ABORTABLE);
		assertThat(this.classifier.classify(new IllegalStateException("processor bug"))).isEqualTo(FailureCategory.ABORTABLE);
		assertThat(this.classifier.classify(new org.apache.kafka.common.errors.RecordTooLargeException("too large")))
			.isEqualTo(FailureCategory.ABORTABLE);
	}

	@Test
	void failureInsideARebalanceCallbackIsClassifiedByItsCauseNotByTheConsumersWrapper() {
		KafkaException wrapped = new KafkaException("User rebalance callback throws an error",
				new IllegalStateException("processor bug"));
		assertThat(this.classifier.classify(wrapped)).isEqualTo(FailureCategory.ABORTABLE);
	}

	@Test
	void otherKafkaErrorsAreFatalForTheProducer() {
		assertThat(this.classifier.classify(new OutOfOrderSequenceException("sequence"))).isEqualTo(FailureCategory.FATAL);
		assertThat(this.classifier.classify(new AuthorizationException("denied"))).isEqualTo(FailureCategory.FATAL);
		assertThat(this.classifier.classify(new UnsupportedVersionException("old"))).isEqualTo(FailureCategory.FATAL);
		assertThat(this.classifier.classify(new KafkaException("unknown"))).isEqualTo(FailureCategory.FATAL);
	}

	@Test
	void aStaticMemberIdStillHeldByAnEarlierMemberIsAJoinToRepeatWithANewConsumer() {
		assertThat(this.classifier.classify(new UnreleasedInstanceIdException("owned by another member")))
			.isEqualTo(FailureCategory.REJOIN);
		assertThat(this.classifier.classify(new FencedInstanceIdException("fenced"))).isEqualTo(FailureCategory.FENCED);
	}

	/**
	 * Kafka 4.4's producer reports a stale member epoch or a missing group on the
	 * transaction's offset commit (TxnOffsetCommit v6, KIP-1319) as this exception, thrown
	 * by sendOffsetsToTransaction with the transaction left abortable; older clients (and
	 * v5) report the same mismatch as an illegal generation or unknown member.
	 */
	private static CommitFailedException transactionOffsetCommitFailed(String brokerMessage) {
		return new CommitFailedException(
				"Transaction offset Commit failed due to consumer group metadata mismatch: " + brokerMessage);
	}

	@Test
	void staleMemberEpochOnTheTransactionsOffsetCommitIsAbortAndRewindOnEveryClientLine() {
		List<CommitFailedException> mismatches = List.of(
				transactionOffsetCommitFailed("The member epoch is stale. The member must retry after receiving its "
						+ "updated member epoch via the ConsumerGroupHeartbeat API."),
				transactionOffsetCommitFailed("The group id does not exist."),
				transactionOffsetCommitFailed("Specified group generation id is not valid."),
				transactionOffsetCommitFailed("The coordinator is not aware of this member."));
		for (CommitFailedException mismatch : mismatches) {
			// Thrown directly, under the producer's error state, inside a rebalance callback.
			assertThat(this.classifier.classify(mismatch)).isEqualTo(FailureCategory.ABORTABLE);
			assertThat(this.classifier.classify(new KafkaException(
					"Cannot execute transactional method because we are in an error state", mismatch)))
				.isEqualTo(FailureCategory.ABORTABLE);
			assertThat(this.classifier
				.classify(new KafkaException("User rebalance callback throws an error", mismatch)))
				.isEqualTo(FailureCategory.ABORTABLE);
		}
		assertThat(this.classifier.classify(new StaleMemberEpochException("stale"))).isEqualTo(FailureCategory.ABORTABLE);
	}

	@Test
	void newerClientsTimeoutsOnTheTransactionalPathStayRetriable() {
		// 4.4: sendOffsetsToTransaction first waits for the input topics' metadata.
		assertThat(this.classifier.classify(new TimeoutException("Failed to update metadata after 60000 ms.")))
			.isEqualTo(FailureCategory.RETRIABLE);
		// 4.3: the transactional waits say which request they waited for.
		assertThat(this.classifier.classify(new TimeoutException("Timeout expired after 60000ms while awaiting "
				+ "SendOffsetsToTransaction. SendOffsetsToTransaction timed out - did not reach the coordinator or "
				+ "receive the TxnOffsetCommit/AddOffsetsToTxn response within max.block.ms")))
			.isEqualTo(FailureCategory.RETRIABLE);
		assertThat(this.classifier.classify(new UnknownTopicIdException("id"))).isEqualTo(FailureCategory.RETRIABLE);
	}

	@Test
	void aConsumerWhoseBackgroundThreadDiedIsReplacedButAVanishedGroupIsNoJoinToRepeat() {
		// 4.4: the consumer's background thread is gone; it serves no call again.
		// (Kafka 4.4's ApplicationEventHandler's message: no exception type of its own.)
		assertThat(this.classifier.classify(
				new KafkaException("The consumer background thread is not running and cannot process requests.")))
			.isEqualTo(FailureCategory.REJOIN);
		assertThat(this.classifier.classify(new KafkaException("some other client failure")))
			.isEqualTo(FailureCategory.FATAL);
		// The group's committed offsets went with it (or its id is another type of group's):
		// a new consumer would start over from auto.offset.reset, so no rejoin.
		assertThat(this.classifier.classify(new GroupIdNotFoundException("The group id does not exist.")))
			.isEqualTo(FailureCategory.FATAL);
	}

	@Test
	void aFieldTheNegotiatedVersionCannotCarryStaysFatalAndPermanent() {
		// 4.4's UnsupportedProtocolFieldException (internal) is one of these.
		UnsupportedVersionException unsupported = new UnsupportedVersionException("regex subscription");
		assertThat(this.classifier.classify(unsupported)).isEqualTo(FailureCategory.FATAL);
		assertThat(FailureClassifier.isPermanent(unsupported)).isTrue();
	}

}
