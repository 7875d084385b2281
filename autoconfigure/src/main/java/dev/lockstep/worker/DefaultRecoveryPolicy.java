package dev.lockstep.worker;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TransactionAbortableException;

/**
 * The recovery contract of kafka-clients 4.x transactions:
 * <ul>
 * <li>{@link ProducerFencedException}: another instance owns the transactional id:
 * {@link Recovery#FENCED};</li>
 * <li>retriable errors (timeouts and every {@link RetriableException}):
 * {@link Recovery#RETRY};</li>
 * <li>abortable errors ({@link TransactionAbortableException}, an
 * {@link InvalidProducerEpochException} after the coordinator aborted a timed-out
 * transaction, a failed group commit or rebalance, a serde failure such as a registry
 * outage) and every failure that is not Kafka's own (a processor's exception):
 * {@link Recovery#ABORT}. When another instance took the transactional id over, the abort
 * itself fails with {@link ProducerFencedException} and the slot stops FENCED; replacing
 * the producer instead would fence the other instance back, and the two would take turns;</li>
 * <li>every other Kafka error (out-of-order sequence, authorization, unsupported
 * version...): {@link Recovery#REPLACE_PRODUCER}.</li>
 * </ul>
 */
public class DefaultRecoveryPolicy implements RecoveryPolicy {

	@Override
	public Recovery classify(Throwable failure) {
		Throwable cause = unwrap(failure);
		if (cause instanceof ProducerFencedException) {
			return Recovery.FENCED;
		}
		if (cause instanceof RetriableException) {
			return Recovery.RETRY;
		}
		if (cause instanceof TransactionAbortableException || cause instanceof InvalidProducerEpochException
				|| cause instanceof CommitFailedException
				|| cause instanceof RebalanceInProgressException || cause instanceof SerializationException
				|| !(cause instanceof KafkaException)) {
			return Recovery.ABORT;
		}
		return Recovery.REPLACE_PRODUCER;
	}

	private static Throwable unwrap(Throwable failure) {
		Throwable cause = failure;
		while ((cause instanceof ExecutionException || cause instanceof CompletionException)
				&& cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

}
