package dev.lockstep.worker;

import io.micrometer.common.KeyValues;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The default {@link ProcessObservationConvention}: OpenTelemetry's messaging conventions
 * for a Kafka consumer that processes a record ({@code messaging.system},
 * {@code messaging.operation.name}, {@code messaging.destination.name},
 * {@code messaging.consumer.group.name}) and the worker's name as low-cardinality key
 * values; partition, offset and the transaction the record joined as high-cardinality
 * ones. Span name: {@code process <topic>}.
 */
public class DefaultProcessObservationConvention implements ProcessObservationConvention {

	/** The shared instance. */
	public static final DefaultProcessObservationConvention INSTANCE = new DefaultProcessObservationConvention();

	@Override
	public String getName() {
		return "lockstep.worker.process";
	}

	@Override
	public String getContextualName(ProcessObservationContext context) {
		return "process " + context.getRecord().topic();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ProcessObservationContext context) {
		return KeyValues.of(WorkerObservations.MESSAGING_SYSTEM, "kafka", WorkerObservations.MESSAGING_OPERATION,
				"process", WorkerObservations.MESSAGING_DESTINATION, context.getRecord().topic(),
				WorkerObservations.MESSAGING_GROUP, context.getGroupId(), WorkerObservations.WORKER,
				context.getWorker());
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ProcessObservationContext context) {
		ConsumerRecord<byte[], byte[]> record = context.getRecord();
		KeyValues values = KeyValues.of(WorkerObservations.MESSAGING_PARTITION, Integer.toString(record.partition()),
				WorkerObservations.MESSAGING_OFFSET, Long.toString(record.offset()));
		if (context.getTransactionalId() != null) {
			values = values.and(WorkerObservations.TRANSACTIONAL_ID, context.getTransactionalId(),
					WorkerObservations.TRANSACTION_SEQUENCE, Long.toString(context.getTransactionSequence()));
		}
		return values;
	}

}
