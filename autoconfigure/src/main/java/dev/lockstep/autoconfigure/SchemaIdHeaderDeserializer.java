package dev.lockstep.autoconfigure;

import java.util.function.BiFunction;

import dev.lockstep.registry.WireFormat;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A registry codec's decoder as Kafka calls it: the record's schema id header
 * ({@value WireFormat#VALUE_SCHEMA_ID_HEADER} or {@value WireFormat#KEY_SCHEMA_ID_HEADER}),
 * when it has a value, names the writer schema in front of a bare payload.
 *
 * @param <T> the decoded type
 */
final class SchemaIdHeaderDeserializer<T> implements Deserializer<T> {

	private final BiFunction<byte[], byte[], T> decoder;

	private final boolean isKey;

	/**
	 * Create a deserializer.
	 * @param decoder the codec's decoder of a header value (or {@code null}) and a message
	 * @param isKey whether it decodes keys
	 */
	SchemaIdHeaderDeserializer(BiFunction<byte[], byte[], T> decoder, boolean isKey) {
		this.decoder = decoder;
		this.isKey = isKey;
	}

	@Override
	public T deserialize(String topic, byte[] data) {
		return this.decoder.apply(null, data);
	}

	@Override
	public T deserialize(String topic, Headers headers, byte[] data) {
		return this.decoder.apply(WireFormat.schemaIdHeader(headers, this.isKey), data);
	}

}
