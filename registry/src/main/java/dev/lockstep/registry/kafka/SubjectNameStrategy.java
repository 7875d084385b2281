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
		return subject(topic, isKey, schema.getFullName());
	}

	/**
	 * Return the subject of a record written to a topic.
	 * @param topic the topic
	 * @param isKey whether the record is a key
	 * @param recordName the record's name (an Avro schema's full name, a JSON schema's
	 * {@code title}); only the record-name strategies need it
	 * @return the subject
	 * @throws IllegalArgumentException when a record-name strategy has no name
	 */
	public String subject(String topic, boolean isKey, String recordName) {
		if (this != TOPIC_NAME && (recordName == null || recordName.isBlank())) {
			throw new IllegalArgumentException(name() + " needs the record's name, and the schema has none");
		}
		return switch (this) {
			case TOPIC_NAME -> topic + (isKey ? "-key" : "-value");
			case RECORD_NAME -> recordName;
			case TOPIC_RECORD_NAME -> topic + "-" + recordName;
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
