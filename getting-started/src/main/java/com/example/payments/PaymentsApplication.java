package com.example.payments;

import java.util.Locale;

import dev.lockstep.worker.InvalidRecordException;
import dev.lockstep.worker.ValueTransformer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A service with one Lockstep worker: payment statuses normalized, exactly once.
 */
@SpringBootApplication
public class PaymentsApplication {

	public static void main(String[] args) {
		SpringApplication.run(PaymentsApplication.class, args);
	}

	// The bean named like the worker holds its logic: "paid" in, "PAID" out.
	@Bean
	ValueTransformer<String, String> paymentStatus() {
		return (status) -> {
			if (status.isBlank()) {
				throw new InvalidRecordException("blank payment status");
			}
			return status.strip().toUpperCase(Locale.ROOT);
		};
	}

}
