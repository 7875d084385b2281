package dev.lockstep.worker.slot;

import java.util.List;

import dev.lockstep.worker.observation.RecordTrace;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A consumed record after its processing: its encoded outputs, or the failure that
 * stopped it.
 *
 * @param raw the record as consumed
 * @param tombstone whether its value was a tombstone
 * @param outputs its encoded outputs, or {@code null} when it failed
 * @param failure what its decoding, processing or encoding threw, or {@code null}
 * @param processorFailed whether the failure is the processor's own (not its decoding or
 * the encoding of what it sent), which is the record's whatever its type
 * @param trace its trace, started ({@link RecordTrace#NONE} when not traced)
 */
public record ProcessedRecord(ConsumerRecord<byte[], byte[]> raw, boolean tombstone,
		List<ProducerRecord<byte[], byte[]>> outputs, Exception failure, boolean processorFailed,
		RecordTrace trace) {

	static ProcessedRecord done(ConsumerRecord<byte[], byte[]> raw, boolean tombstone,
			List<ProducerRecord<byte[], byte[]>> outputs, RecordTrace trace) {
		return new ProcessedRecord(raw, tombstone, outputs, null, false, trace);
	}

	/**
	 * A record whose processing failed.
	 * @param raw the input
	 * @param failure why
	 * @param processorFailed whether the processor threw (not a codec)
	 * @param trace the record's trace
	 * @return the processed record
	 */
	public static ProcessedRecord failed(ConsumerRecord<byte[], byte[]> raw, Exception failure, boolean processorFailed,
			RecordTrace trace) {
		return new ProcessedRecord(raw, false, null, failure, processorFailed, trace);
	}

}
