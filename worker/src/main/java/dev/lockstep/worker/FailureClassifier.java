package dev.lockstep.worker;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnTimeoutException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.StaleMemberEpochException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.UnreleasedInstanceIdException;
import org.apache.kafka.common.errors.UnsupportedForMessageFormatException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * The one place that decides what a failure means ({@link FailureCategory}):
 * <ul>
 * <li>{@link InvalidRecordException}, or an exception of a type the codecs declare as
 * invalid data ({@link WorkerSettings.Codecs#invalidData()}): {@link FailureCategory#INVALID_INPUT};</li>
 * <li>{@link ProducerFencedException} and {@link FencedInstanceIdException}:
 * {@link FailureCategory#FENCED};</li>
 * <li>every {@link RetriableException} (timeouts): {@link FailureCategory#RETRIABLE}, unless
 * the producer reports it as the cause of its error state, which only an abort clears;</li>
 * <li>{@link TransactionAbortableException}, {@link InvalidProducerEpochException},
 * {@link CommitFailedException} (from Kafka 4.4 clients also a stale member epoch or a
 * missing group on the transaction's offset commit, KIP-1319: the consumer repairs its
 * membership at its next poll, so abort and rewind is the rejoin),
 * {@link StaleMemberEpochException}, {@link RebalanceInProgressException}, a record the
 * broker or client refuses (too large, invalid), a codec failure that is not invalid
 * data (a {@link SerializationException} of a codec that cannot reach its registry),
 * and every failure that is not Kafka's own (a processor's exception):
 * {@link FailureCategory#ABORTABLE};</li>
 * <li>{@link UnreleasedInstanceIdException} (the group still holds the slot's static
 * member id for an earlier member) and a consumer whose background thread died (Kafka
 * 4.4, consumer group protocol): {@link FailureCategory#REJOIN};</li>
 * <li>every other Kafka error (out-of-order sequence, authorization, unsupported
 * version, a group id the coordinator does not know or holds for another type of
 * group...): {@link FailureCategory#FATAL}. A new consumer is no cure for a vanished
 * group: its committed offsets went with it, and the new one would start over from
 * {@code auto.offset.reset}.</li>
 * </ul>
 * A failure the user's processor throws is its record's, whatever its type (a Kafka
 * client of the processor's own, fenced or timed out, among them): see
 * {@link #classifyProcessorFailure(Throwable)}.
 * Wrappers are looked through first: {@link ExecutionException}, {@link CompletionException}
 * and a plain {@link KafkaException} with a cause (how the consumer reports a failure in a
 * rebalance callback, and how the producer reports the error that put it in an error state).
 */
public final class FailureClassifier {

	private final List<Class<? extends Throwable>> invalidData;

	/**
	 * Create a classifier.
	 * @param invalidData the exception types that mean "these bytes can never be decoded
	 * or encoded", besides {@link InvalidRecordException}
	 */
	public FailureClassifier(List<Class<? extends Throwable>> invalidData) {
		this.invalidData = List.copyOf(invalidData);
	}

	/**
	 * Classify a failure.
	 * @param failure the failure
	 * @return its category
	 */
	public FailureCategory classify(Throwable failure) {
		Throwable cause = unwrap(failure);
		FailureCategory category = classifyUnwrapped(cause);
		// The producer's error state (a plain KafkaException over the error that caused it)
		// is not cured by repeating the call: only fencing and fatal causes keep their category.
		if (category == FailureCategory.RETRIABLE && cause != failure && isWrappedByTheClient(failure)) {
			return FailureCategory.ABORTABLE;
		}
		return category;
	}

	/**
	 * Classify a failure the user's processor threw: {@link FailureCategory#INVALID_INPUT}
	 * when it marks the record as invalid ({@link InvalidRecordException} or a declared
	 * invalid-data type), otherwise {@link FailureCategory#ABORTABLE}. The slot's own
	 * clients never throw through the processor, so no fence or fatal error of theirs is
	 * read into it.
	 * @param failure what the processor threw
	 * @return its category
	 */
	public FailureCategory classifyProcessorFailure(Throwable failure) {
		return isInvalidInput(unwrap(failure)) ? FailureCategory.INVALID_INPUT : FailureCategory.ABORTABLE;
	}

	/**
	 * Return whether retrying cannot change a failure of the slot's clients: the cluster
	 * refuses the configuration (a transaction timeout over the broker's maximum, a
	 * protocol the broker does not support) or the failure is no Kafka error at all (a
	 * programming error). Timeouts, authentication and authorization failures, unknown
	 * server errors and fences may all pass (a broker restarting, credentials or ACLs being
	 * rolled out).
	 * @param failure the failure
	 * @return whether it is permanent
	 */
	public static boolean isPermanent(Throwable failure) {
		Throwable cause = unwrap(failure);
		return cause instanceof InvalidTxnTimeoutException || cause instanceof UnsupportedVersionException
				|| cause instanceof UnsupportedForMessageFormatException
				|| cause instanceof ConfigException
				|| !(cause instanceof KafkaException);
	}

	/**
	 * Describe a failure by its root cause, with the outer message as context when it
	 * says something else: Kafka's clients report many errors as a generic error state
	 * over the one that caused it.
	 * @param failure the failure
	 * @return its description
	 */
	public static String describe(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String rootText = root.getClass().getSimpleName() + ": " + root.getMessage();
		if (root == failure || failure.getMessage() == null || failure.getMessage().contains(rootText)) {
			return rootText;
		}
		return rootText + " (" + failure.getClass().getSimpleName() + ": " + failure.getMessage() + ")";
	}

	/**
	 * Return whether a failure, or one of its causes, says the client may not access one
	 * of some topics.
	 * @param failure the failure
	 * @param topics the topics
	 * @return whether one of them was denied
	 */
	public static boolean deniesAny(Throwable failure, Collection<String> topics) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof TopicAuthorizationException denied
					&& denied.unauthorizedTopics().stream().anyMatch(topics::contains)) {
				return true;
			}
		}
		return false;
	}

	private FailureCategory classifyUnwrapped(Throwable cause) {
		if (isInvalidInput(cause)) {
			return FailureCategory.INVALID_INPUT;
		}
		if (cause instanceof ProducerFencedException || cause instanceof FencedInstanceIdException) {
			return FailureCategory.FENCED;
		}
		if (cause instanceof RetriableException) {
			return FailureCategory.RETRIABLE;
		}
		if (cause instanceof UnreleasedInstanceIdException || isConsumerThreadGone(cause)) {
			return FailureCategory.REJOIN;
		}
		if (cause instanceof TransactionAbortableException || cause instanceof InvalidProducerEpochException
				|| cause instanceof CommitFailedException || cause instanceof StaleMemberEpochException
				|| cause instanceof RebalanceInProgressException
				|| cause instanceof SerializationException || isRecordRefused(cause)
				|| !(cause instanceof KafkaException)) {
			return FailureCategory.ABORTABLE;
		}
		return FailureCategory.FATAL;
	}

	private boolean isInvalidInput(Throwable failure) {
		if (failure instanceof InvalidRecordException) {
			return true;
		}
		for (Class<? extends Throwable> type : this.invalidData) {
			if (type.isInstance(failure)) {
				return true;
			}
		}
		return false;
	}

	private static boolean isWrappedByTheClient(Throwable failure) {
		for (Throwable wrapper = failure; wrapper != null; wrapper = wrapper.getCause()) {
			if (wrapper.getClass() == KafkaException.class) {
				return true;
			}
		}
		return false;
	}

	// Kafka 4.4's consumer of the consumer group protocol, its network thread gone: a plain
	// KafkaException, no type of its own; only a new consumer serves again.
	private static boolean isConsumerThreadGone(Throwable cause) {
		return cause.getClass() == KafkaException.class && cause.getMessage() != null
				&& cause.getMessage().startsWith("The consumer background thread is not running");
	}

	// The broker or client refused one record: its transaction aborts, the producer stays usable.
	private static boolean isRecordRefused(Throwable cause) {
		return cause instanceof RecordTooLargeException || cause instanceof RecordBatchTooLargeException
				|| cause instanceof org.apache.kafka.common.InvalidRecordException;
	}

	private static Throwable unwrap(Throwable failure) {
		Throwable cause = failure;
		while ((cause instanceof ExecutionException || cause instanceof CompletionException
				|| cause.getClass() == KafkaException.class) && cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

}
