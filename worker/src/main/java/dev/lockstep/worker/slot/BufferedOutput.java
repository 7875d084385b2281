package dev.lockstep.worker.slot;

import java.util.ArrayList;
import java.util.List;

import dev.lockstep.worker.Output;
import dev.lockstep.worker.observation.RecordTrace;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Collects and encodes what a processor emits for one input record. Nothing reaches the
 * producer until the processor has returned normally, so a record rejected half-way
 * leaves no partial output in the transaction.
 */
final class BufferedOutput implements Output {

	private final String destination;

	private final Serializer<Object> keySerializer;

	private final Serializer<Object> valueSerializer;

	private final ConsumerRecord<byte[], byte[]> input;

	private final RecordTrace trace;

	private final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(1);

	// What the last failed encoding threw, told apart from the processor's own failures.
	private RuntimeException encodingFailure;

	BufferedOutput(String destination, Serializer<Object> keySerializer, Serializer<Object> valueSerializer,
			ConsumerRecord<byte[], byte[]> input, RecordTrace trace) {
		this.destination = destination;
		this.keySerializer = keySerializer;
		this.valueSerializer = valueSerializer;
		this.input = input;
		this.trace = trace;
	}

	@Override
	public void toDestination(Object key, Object value, Headers headers) {
		send(this.destination, key, value, headers);
	}

	@Override
	public void send(String topic, Object key, Object value, Headers headers) {
		RecordHeaders copy = (headers != null) ? new RecordHeaders(headers.toArray()) : new RecordHeaders();
		// The record's trace context, in place of the input's the headers may carry.
		this.trace.inject(this.input, copy);
		// An encoding failure propagates as it is: the codec's exception type says whether
		// the value can never be encoded or the codec failed for now (a registry outage).
		try {
			this.records.add(new ProducerRecord<>(topic, null, this.keySerializer.serialize(topic, copy, key),
					this.valueSerializer.serialize(topic, copy, value), copy));
		}
		catch (RuntimeException ex) {
			this.encodingFailure = ex;
			throw ex;
		}
	}

	/**
	 * Return whether a failure is one this output's encoding threw (passed on by the
	 * processor), not the processor's own.
	 * @param failure the failure
	 * @return whether the codec threw it
	 */
	boolean isEncodingFailure(Throwable failure) {
		return failure != null && failure == this.encodingFailure;
	}

	List<ProducerRecord<byte[], byte[]>> records() {
		return this.records;
	}

}
