package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;

import io.micrometer.observation.transport.ReceiverContext;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The context of a {@code lockstep.worker.process} observation: one consumed record
 * processed by a worker, from the start of its processing until it joined its
 * transaction (or was held back). Its carrier is the record, so a tracing handler
 * continues the trace whose context the record's headers carry.
 */
public class ProcessObservationContext extends ReceiverContext<ConsumerRecord<byte[], byte[]>> {

	private final String worker;

	private final String groupId;

	private String transactionalId;

	private long transactionSequence = -1;

	/**
	 * Create the context of one record's processing.
	 * @param record the record as consumed
	 * @param worker the worker's name
	 * @param groupId the worker's consumer group
	 */
	public ProcessObservationContext(ConsumerRecord<byte[], byte[]> record, String worker, String groupId) {
		super(ProcessObservationContext::header);
		setCarrier(record);
		setRemoteServiceName("Apache Kafka");
		this.worker = worker;
		this.groupId = groupId;
	}

	private static String header(ConsumerRecord<byte[], byte[]> record, String key) {
		Header header = record.headers().lastHeader(key);
		return (header != null && header.value() != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

	public ConsumerRecord<byte[], byte[]> getRecord() {
		return getCarrier();
	}

	public String getWorker() {
		return this.worker;
	}

	public String getGroupId() {
		return this.groupId;
	}

	/**
	 * Return the transactional id of the transaction the record joined.
	 * @return the transactional id, or {@code null} when it joined none (yet)
	 */
	public String getTransactionalId() {
		return this.transactionalId;
	}

	/**
	 * Return the sequence number, per transactional id, of the transaction the record
	 * joined: with the transactional id it names one {@code lockstep.worker.transaction}
	 * observation.
	 * @return the sequence number, or -1 when it joined none (yet)
	 */
	public long getTransactionSequence() {
		return this.transactionSequence;
	}

	void joined(String transactionalId, long sequence) {
		this.transactionalId = transactionalId;
		this.transactionSequence = sequence;
	}

}
