package com.example.payments;

import dev.lockstep.test.context.LockstepKafkaBroker;
import dev.lockstep.test.context.WorkerAcl;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@link PaymentStatusTests} on a secured broker: SASL_SSL, the worker's least privilege,
 * encryption required.
 */
@SpringBootTest(properties = "lockstep.security.require-encryption=true")
@LockstepKafkaBroker(topics = { "payments", "payments-normalized" }, secured = true,
		acls = @WorkerAcl(read = "payments", group = "payment-status", write = "payments-normalized",
				transactionalId = "payment-status"))
class PaymentStatusSecuredTests extends PaymentStatusTests {

}
