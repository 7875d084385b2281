package com.example.payments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README's "Getting started" cannot drift from this module, nor its worker without Spring
 * Boot from the worker module's test: every fenced block that README marks with
 * {@code <!-- getting-started/<file> -->} or {@code <!-- worker/<file> -->} must be in
 * that file, line for line (tabs read as four spaces).
 */
class ReadmeSnippetsTests {

	private static final Path ROOT = Path.of("..");

	private static final Pattern SNIPPET = Pattern
		.compile("<!-- ((?:getting-started|worker)/\\S+) -->\\R```\\w*\\R(.*?)\\R```", Pattern.DOTALL);

	@Test
	void everyGettingStartedSnippetIsInTheFileItNames() throws IOException {
		String readme = Files.readString(ROOT.resolve("README.md"));
		Matcher snippets = SNIPPET.matcher(readme);
		List<String> files = new ArrayList<>();
		while (snippets.find()) {
			String file = snippets.group(1);
			String source = Files.readString(ROOT.resolve(file)).replace("\t", "    ");
			assertThat(source).as("README's snippet of %s", file).contains(snippets.group(2));
			files.add(file);
		}
		assertThat(files).as("files README's Getting started shows")
			.contains("getting-started/pom.xml", "getting-started/src/main/resources/application.yml",
					"getting-started/src/test/java/com/example/payments/PaymentStatusTests.java",
					"worker/src/test/java/com/example/plain/PlainWorkerTests.java");
	}

}
