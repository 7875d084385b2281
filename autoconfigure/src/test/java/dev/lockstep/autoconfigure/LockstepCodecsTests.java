package dev.lockstep.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.SchemaIdFraming;
import dev.lockstep.registry.kafka.SubjectNameStrategy;
import dev.lockstep.autoconfigure.protobuf.test.Order;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Codecs found by the name YAML gives them: Lockstep's own and the application's
 * {@link LockstepCodec} beans.
 */
class LockstepCodecsTests {

	private static final LockstepCodec UPPER = new LockstepCodec() {

		@Override
		public String name() {
			return "upper-string";
		}

		@Override
		public Serializer<?> serializer(CodecSettings settings) {
			return (Serializer<String>) (topic, value) -> (value != null)
					? value.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8) : null;
		}

		@Override
		public Deserializer<?> deserializer(CodecSettings settings) {
			return new StringDeserializer();
		}

	};

	@Test
	void anApplicationsCodecIsFoundByItsName() {
		LockstepCodecs factory = new LockstepCodecs(null, false, List.of(UPPER));
		@SuppressWarnings("unchecked")
		Serializer<String> serializer = (Serializer<String>) factory.serializer(codec("upper-string"), false, "p.value");
		assertThat(serializer.serialize("t", "paid")).isEqualTo("PAID".getBytes(StandardCharsets.UTF_8));
		assertThat(factory.usesRegistry(codec("upper-string"))).isFalse();
	}

	@Test
	void anApplicationsCodecReplacesLockstepsOfTheSameName() {
		LockstepCodec bytes = new LockstepCodec() {

			@Override
			public String name() {
				return "string";
			}

			@Override
			public Serializer<?> serializer(CodecSettings settings) {
				return new ByteArraySerializer();
			}

			@Override
			public Deserializer<?> deserializer(CodecSettings settings) {
				return new StringDeserializer();
			}

		};
		assertThat(new LockstepCodecs(null, false, List.of(bytes)).serializer(codec("string"), true, "p.key"))
			.isInstanceOf(ByteArraySerializer.class);
		assertThat(new LockstepCodecs(null, false).serializer(codec("string"), true, "p.key"))
			.isInstanceOf(StringSerializer.class);
	}

	@Test
	void namesAreReadAsSpringReadsEnumValues() {
		LockstepCodecs factory = new LockstepCodecs(null, false);
		assertThat(factory.serializer(codec("STRING"), false, "p.value")).isInstanceOf(StringSerializer.class);
		assertThat(factory.usesRegistry(codec("REGISTRY_AVRO"))).isTrue();
		assertThat(factory.usesRegistry(codec("registryAvro"))).isTrue();
		assertThat(factory.usesRegistry(codec("registry-json-schema"))).isTrue();
		assertThatExceptionOfType(LockstepConfigurationException.class)
			.isThrownBy(() -> factory.deserializer(codec("Registry_Avro"), false, "p.value"))
			.withMessageContaining("needs a schema registry");
	}

	@Test
	void twoApplicationCodecsOfOneNameAreRefused() {
		LockstepCodec same = new LockstepCodec() {

			@Override
			public String name() {
				return "UPPER_STRING";
			}

			@Override
			public Serializer<?> serializer(CodecSettings settings) {
				return new StringSerializer();
			}

			@Override
			public Deserializer<?> deserializer(CodecSettings settings) {
				return new StringDeserializer();
			}

		};
		assertThatIllegalStateException().isThrownBy(() -> new LockstepCodecs(null, false, List.of(UPPER, same)))
			.withMessageContaining("'upper-string' and 'UPPER_STRING'");
	}

	@Test
	void aRegistryAvroTypeThatIsNotAGeneratedRecordIsRefused() {
		LockstepCodecs factory = new LockstepCodecs(RegistryClient.builder("http://127.0.0.1:9").build(),
				false);
		LockstepProperties.Codec codec = codec("registry-avro");
		codec.setType(SpecificRecordBase.class);
		assertThatExceptionOfType(LockstepConfigurationException.class)
			.isThrownBy(() -> factory.deserializer(codec, false, "p.value"))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("p.value.type"));
	}

	@Test
	void protobufCodecsNeedAGeneratedMessageClass() {
		LockstepCodecs factory = new LockstepCodecs(RegistryClient.builder("http://127.0.0.1:9").build(),
				false);
		LockstepProperties.Codec bare = codec("protobuf");
		assertThatExceptionOfType(LockstepConfigurationException.class)
			.isThrownBy(() -> factory.deserializer(bare, false, "p.value"))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("p.value.type"))
			.withMessageContaining("protobuf needs the generated message class");
		LockstepProperties.Codec registry = codec("registry-protobuf");
		registry.setType(String.class);
		assertThatExceptionOfType(LockstepConfigurationException.class)
			.isThrownBy(() -> factory.serializer(registry, false, "p.value"))
			.withMessageContaining("java.lang.String is not a generated Protobuf message");
		registry.setType(Order.class);
		assertThat(factory.deserializer(registry, false, "p.value")).isNotNull();
		bare.setType(Order.class);
		@SuppressWarnings("unchecked")
		Serializer<Order> serializer = (Serializer<Order>) factory.serializer(bare, false, "p.value");
		@SuppressWarnings("unchecked")
		Deserializer<Order> deserializer = (Deserializer<Order>) factory.deserializer(bare, false, "p.value");
		Order order = Order.newBuilder().setId("o-1").setAmountCents(5).build();
		assertThat(serializer.serialize("t", order)).isEqualTo(order.toByteArray());
		assertThat(deserializer.deserialize("t", order.toByteArray())).isEqualTo(order);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer.deserialize("t", new byte[] { 0x0a, (byte) 0xff }));
	}

	@Test
	void theJsonCodecWritesPlainJsonAndReadsItStrictly() {
		LockstepCodecs factory = new LockstepCodecs(null, false);
		LockstepProperties.Codec json = codec("json");
		@SuppressWarnings("unchecked")
		Serializer<Object> serializer = (Serializer<Object>) factory.serializer(json, false, "p.value");
		Deserializer<?> trees = factory.deserializer(json, false, "p.value");
		byte[] bytes = serializer.serialize("t", java.util.Map.of("id", "o-1"));
		assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"o-1\"}");
		assertThat(trees.deserialize("t", bytes)).hasToString("{\"id\":\"o-1\"}");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> trees.deserialize("t", "{\"id\":1,\"id\":2}".getBytes(StandardCharsets.UTF_8)))
			.withMessageContaining("Duplicate");
		assertThat(factory.usesRegistry(json)).isFalse();
	}

	@Test
	void anUnknownNameIsRefusedWithTheNamesThereAre() {
		assertThatExceptionOfType(LockstepConfigurationException.class)
			.isThrownBy(() -> new LockstepCodecs(null, false, List.of(UPPER)).serializer(codec("cbor"), false,
					"lockstep.workers.w.value"))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("lockstep.workers.w.value.codec"))
			.withMessageContaining("bytes, json, protobuf, raw-avro, registry-avro, registry-json-schema, "
					+ "registry-protobuf, string, upper-string");
	}

	@Test
	void aSchemaOnACodecWithoutOneIsRefused() {
		LockstepProperties.Codec codec = codec("bytes");
		codec.setSchema("classpath:order.schema.json");
		assertThatExceptionOfType(LockstepConfigurationException.class)
			.isThrownBy(() -> new LockstepCodecs(null, false).serializer(codec, false, "p.value"))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("p.value.schema"));
	}

	@Test
	void registrySettingsOnACodecThatNamesNoSchemaAreRefused() {
		LockstepProperties.Codec codec = codec("string");
		codec.setSchemaId(SchemaIdFraming.HEADER);
		assertThatExceptionOfType(LockstepConfigurationException.class)
			.isThrownBy(() -> new LockstepCodecs(null, false).serializer(codec, false, "p.output-value"))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("p.output-value.schema-id"))
			.withMessageContaining("the string codec names no schema");
		LockstepProperties.Codec bySubject = codec("json");
		bySubject.setSubjectNameStrategy(SubjectNameStrategy.RECORD_NAME);
		assertThatExceptionOfType(LockstepConfigurationException.class)
			.isThrownBy(() -> new LockstepCodecs(null, false).serializer(bySubject, false, "p.output-value"))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("p.output-value.subject-name-strategy"));
	}

	@Test
	void theAutoConfigurationHandsTheApplicationsCodecsToTheFactory() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LockstepRegistryAutoConfiguration.class))
			.withBean(LockstepCodec.class, () -> UPPER)
			.run((context) -> assertThat(context.getBean(LockstepCodecs.class).serializer(codec("upper-string"), false,
					"p.value"))
				.isNotInstanceOf(StringSerializer.class)
				.isNotInstanceOf(ByteArraySerializer.class));
	}

	private static LockstepProperties.Codec codec(String name) {
		LockstepProperties.Codec codec = new LockstepProperties.Codec();
		codec.setCodec(name);
		return codec;
	}

}
