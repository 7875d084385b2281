package dev.lockstep.worker.observation;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The trace of records that are not sampled: each output gets the input's trace headers
 * as they are. Stateless, and it cannot fail: one instance serves every record, unguarded.
 */
final class PassThroughTrace implements RecordTrace {

	private final String[] keys;

	PassThroughTrace(List<String> keys) {
		this.keys = keys.toArray(String[]::new);
	}

	@Override
	public void inject(ConsumerRecord<byte[], byte[]> input, Headers output) {
		for (String key : this.keys) {
			Header header = input.headers().lastHeader(key);
			// Most processors carry the input's headers over: then there is nothing to do.
			if (output.lastHeader(key) != header) {
				output.remove(key);
				if (header != null) {
					output.add(header);
				}
			}
		}
	}

}
