package com.example.payments;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.lockstep.test.context.LockstepKafkaBroker;
import dev.lockstep.test.context.TestKafka;
import dev.lockstep.test.context.WorkerAcl;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(properties = "lockstep.security.require-encryption=true")
@LockstepKafkaBroker(topics = { "payments", "payments-normalized" }, secured = true,
		acls = @WorkerAcl(read = "payments", group = "payment-status", write = "payments-normalized",
				transactionalId = "payment-status"))
class PaymentStatusSecuredTests {

	@Autowired
	TestKafka kafka;

	@Test
	void statusIsNormalizedExactlyOnceOverSaslSslWithLeastPrivilege() {
		this.kafka.send("payments", bytes("p-1"), bytes(" paid "));
		var output = this.kafka.readCommitted("payments-normalized", 1, Duration.ofMinutes(1));
		assertThat(output).singleElement()
			.satisfies((record) -> assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("PAID"));
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
