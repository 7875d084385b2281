package com.example.payments;

import org.springframework.boot.SpringApplication;

/**
 * Runs the service on the development broker: {@code ./mvnw spring-boot:test-run}.
 */
public class TestPaymentsApplication {

	public static void main(String[] args) {
		SpringApplication.from(PaymentsApplication::main).withAdditionalProfiles("dev").run(args);
	}

}
