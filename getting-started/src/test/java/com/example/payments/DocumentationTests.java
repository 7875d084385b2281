package com.example.payments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README and the chapters of {@code docs/} cannot drift from the code they show, nor point
 * nowhere: every fenced block marked {@code <!-- getting-started/<file> -->} or
 * {@code <!-- worker/<file> -->} must be in that file, line for line (tabs read as four
 * spaces), and every relative link must reach a file, and a heading of it where it names
 * one.
 */
class DocumentationTests {

	private static final Path ROOT = Path.of("..");

	private static final Pattern SNIPPET = Pattern
		.compile("<!-- ((?:getting-started|worker)/\\S+) -->\\R```\\w*\\R(.*?)\\R```", Pattern.DOTALL);

	private static final Pattern MARKER = Pattern.compile("<!-- (\\S+/\\S+) -->");

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	private static final Pattern FENCED = Pattern.compile("(?ms)^```.*?^```");

	@Test
	void everySnippetIsInTheFileItNames() throws IOException {
		List<String> files = new ArrayList<>();
		for (Path page : pages()) {
			String text = Files.readString(page);
			Matcher snippets = SNIPPET.matcher(text);
			while (snippets.find()) {
				String file = snippets.group(1);
				String source = Files.readString(ROOT.resolve(file)).replace("\t", "    ");
				assertThat(snippets.group(2)).as("%s's snippet of %s", page, file).isNotBlank();
				assertThat(source).as("%s's snippet of %s", page, file).contains(snippets.group(2));
				files.add(file);
			}
			// A marker this test cannot read (another module, no fence right below) checks nothing.
			assertThat(MARKER.matcher(text).results().count()).as("%s's snippet markers this test reads", page)
				.isEqualTo(SNIPPET.matcher(text).results().count());
		}
		assertThat(files).as("files the documentation shows")
			.contains("getting-started/pom.xml", "getting-started/src/main/resources/application.yml",
					"getting-started/src/test/java/com/example/payments/PaymentStatusTests.java",
					"worker/src/test/java/com/example/plain/PlainWorkerTests.java");
	}

	@Test
	void everyRelativeLinkReachesAFileAndItsHeading() throws IOException {
		List<String> links = new ArrayList<>();
		for (Path page : pages()) {
			Matcher link = LINK.matcher(FENCED.matcher(Files.readString(page)).replaceAll(""));
			while (link.find()) {
				String target = link.group(1);
				if (target.matches("[a-z]+:.*")) {
					continue;
				}
				int hash = target.indexOf('#');
				Path file = (hash == 0) ? page : page.resolveSibling((hash < 0) ? target : target.substring(0, hash));
				assertThat(file).as("%s links to %s", page, target).exists();
				if (hash >= 0) {
					assertThat(anchors(file)).as("%s links to %s", page, target).contains(target.substring(hash + 1));
				}
				links.add(target);
			}
		}
		assertThat(links).as("README's links to the chapters").contains("docs/workers.md", "docs/performance.md");
	}

	private static List<Path> pages() throws IOException {
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			return Stream.concat(Stream.of(ROOT.resolve("README.md")),
					docs.filter((path) -> path.toString().endsWith(".md")).sorted())
				.toList();
		}
	}

	/** The anchors GitHub gives a page's headings. */
	private static List<String> anchors(Path page) throws IOException {
		return FENCED.matcher(Files.readString(page))
			.replaceAll("")
			.lines()
			.filter((line) -> line.matches("#{1,6} .*"))
			.map((line) -> line.replaceFirst("#+ ", "")
				.toLowerCase(Locale.ROOT)
				.replaceAll("[^\\p{L}\\p{N} _-]", "")
				.replace(' ', '-'))
			.toList();
	}

}
