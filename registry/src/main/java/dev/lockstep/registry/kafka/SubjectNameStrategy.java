package dev.lockstep.registry.kafka;

import java.util.Locale;

import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;

/**
 * How a serializer names the subject it looks a schema up under, as Confluent's
 * strategies of the same names do.
 */
public enum SubjectNameStrategy {

	/** {@code <topic>-key} or {@code <topic>-value}: the default. */
	TOPIC_NAME,

	/** The record's full name, whatever the topic. */
	RECORD_NAME,

	/** {@code <topic>-<record full name>}. */
	TOPIC_RECORD_NAME;

	/**
	 * Return the subject of a record written to a topic.
	 * @param topic the topic
	 * @param isKey whether the record is a key
	 * @param schema the record's schema
	 * @return the subject
	 */
	public String subject(String topic, boolean isKey, Schema schema) {
		return switch (this) {
			case TOPIC_NAME -> topic + (isKey ? "-key" : "-value");
			case RECORD_NAME -> schema.getFullName();
			case TOPIC_RECORD_NAME -> topic + "-" + schema.getFullName();
		};
	}

	/**
	 * Parse a strategy from Confluent's class names or their simple names.
	 * @param key the configuration key, for the error message
	 * @param value a class name such as
	 * {@code io.confluent.kafka.serializers.subject.RecordNameStrategy}
	 * @return the strategy
	 * @throws ConfigException for any other strategy: ignoring it would write under
	 * another subject
	 */
	static SubjectNameStrategy parse(String key, String value) {
		String simple = value.substring(value.lastIndexOf('.') + 1).trim().toLowerCase(Locale.ROOT);
		return switch (simple) {
			case "topicnamestrategy" -> TOPIC_NAME;
			case "recordnamestrategy" -> RECORD_NAME;
			case "topicrecordnamestrategy" -> TOPIC_RECORD_NAME;
			default -> throw new ConfigException(key, value,
					"Lockstep supports TopicNameStrategy, RecordNameStrategy and TopicRecordNameStrategy");
		};
	}

}
