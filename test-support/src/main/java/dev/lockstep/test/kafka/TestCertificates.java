package dev.lockstep.test.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away certificate authority for tests, made fresh in memory (EC P-256, valid for
 * a day) and written as PKCS12 stores into a directory the caller owns: its trust store,
 * and key stores of certificates it issues for {@code 127.0.0.1} and {@code localhost},
 * usable by a server and a client alike. Every store has the authority's random password.
 * Nothing here is a real secret: a new authority per run, gone with its directory.
 */
public final class TestCertificates {

	private static final String SIGNATURE = "SHA256withECDSA";

	private static final Duration VALIDITY = Duration.ofDays(1);

	private final Path directory;

	private final char[] password;

	private final KeyPair key;

	private final X509Certificate certificate;

	private final AtomicLong serials = new AtomicLong(1);

	private TestCertificates(Path directory, String name) throws GeneralSecurityException {
		this.directory = directory;
		byte[] random = new byte[12];
		new SecureRandom().nextBytes(random);
		this.password = HexFormat.of().formatHex(random).toCharArray();
		this.key = newKeyPair();
		X500Name subject = new X500Name("CN=" + name);
		this.certificate = sign(new JcaX509v3CertificateBuilder(subject, serial(), notBefore(), notAfter(), subject,
				this.key.getPublic()), (builder) -> {
					builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
					builder.addExtension(Extension.keyUsage, true,
							new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
				});
	}

	/**
	 * Create an authority and write its trust store into a directory.
	 * @param directory where its stores go (created if missing)
	 * @param name the authority's common name
	 * @return the authority
	 */
	public static TestCertificates create(Path directory, String name) {
		try {
			Files.createDirectories(directory);
			TestCertificates authority = new TestCertificates(directory, name);
			KeyStore trust = emptyStore();
			trust.setCertificateEntry("ca", authority.certificate);
			authority.write(trust, authority.trustStore());
			return authority;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not create a test certificate authority", ex);
		}
	}

	/**
	 * Return the PKCS12 trust store holding this authority's certificate.
	 * @return the store's path
	 */
	public Path trustStore() {
		return this.directory.resolve("truststore.p12");
	}

	/**
	 * Return the password of every store this authority writes.
	 * @return the password
	 */
	public String password() {
		return new String(this.password);
	}

	/**
	 * Return the PKCS12 key store of a certificate this authority issued for a common name
	 * (for {@code 127.0.0.1} and {@code localhost}, server and client use), issuing it on
	 * first request.
	 * @param commonName the certificate's common name, such as {@code broker} or a user
	 * @return the store's path
	 */
	public synchronized Path keyStore(String commonName) {
		Path store = this.directory.resolve(commonName + ".p12");
		return Files.exists(store) ? store : issue(commonName, Instant.now().plus(VALIDITY), "127.0.0.1", "localhost");
	}

	/**
	 * Issue a certificate for a common name, valid until a given instant (a past one gives
	 * an expired certificate) for the given hosts only, and write its PKCS12 key store
	 * (replacing one of the same name): a certificate for another host, or an expired one.
	 * @param commonName the certificate's common name
	 * @param notAfter the end of its validity
	 * @param hosts its subject alternative names: IP addresses or DNS names
	 * @return the store's path
	 */
	public synchronized Path issue(String commonName, Instant notAfter, String... hosts) {
		Path store = this.directory.resolve(commonName + ".p12");
		try {
			KeyPair pair = newKeyPair();
			GeneralName[] names = Stream.of(hosts)
				.map((host) -> new GeneralName(host.matches("[0-9.]+") ? GeneralName.iPAddress : GeneralName.dNSName,
						host))
				.toArray(GeneralName[]::new);
			// Valid from a moment ago (clocks differ), or a day before an end already past.
			Instant from = notBefore().toInstant();
			if (!from.isBefore(notAfter)) {
				from = notAfter.minus(VALIDITY);
			}
			X509Certificate issued = sign(new JcaX509v3CertificateBuilder(this.certificate, serial(), Date.from(from),
					Date.from(notAfter), new X500Name("CN=" + commonName), pair.getPublic()), (builder) -> {
						builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
						builder.addExtension(Extension.keyUsage, true,
								new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
						builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
								new KeyPurposeId[] { KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth }));
						builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
					});
			KeyStore keys = emptyStore();
			keys.setKeyEntry(commonName, pair.getPrivate(), this.password,
					new Certificate[] { issued, this.certificate });
			write(keys, store);
			return store;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not issue a test certificate for " + commonName, ex);
		}
	}

	/**
	 * Return a TLS context that presents the certificate issued for a common name and
	 * trusts this authority: a test server's (an HTTPS registry), or a client's.
	 * @param commonName the certificate's common name
	 * @return the context
	 */
	public SSLContext sslContext(String commonName) {
		try {
			KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			keys.init(load(keyStore(commonName)), this.password);
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(load(trustStore()));
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
			return context;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not build a TLS context for " + commonName, ex);
		}
	}

	private KeyStore load(Path store) throws GeneralSecurityException {
		try (InputStream in = Files.newInputStream(store)) {
			KeyStore keys = KeyStore.getInstance("PKCS12");
			keys.load(in, this.password);
			return keys;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private X509Certificate sign(X509v3CertificateBuilder builder, Extensions extensions)
			throws GeneralSecurityException {
		try {
			extensions.addTo(builder);
			return new JcaX509CertificateConverter()
				.getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(this.key.getPrivate())));
		}
		catch (CertIOException | OperatorCreationException ex) {
			throw new GeneralSecurityException(ex);
		}
	}

	private void write(KeyStore store, Path path) {
		try (OutputStream out = Files.newOutputStream(path)) {
			store.store(out, this.password);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not write " + path, ex);
		}
	}

	private BigInteger serial() {
		// Unique within the authority, which is all a verifier asks of it.
		return BigInteger.valueOf(this.serials.getAndIncrement());
	}

	private static KeyStore emptyStore() throws GeneralSecurityException {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try {
			store.load(null, null);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return store;
	}

	private static KeyPair newKeyPair() throws GeneralSecurityException {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
		generator.initialize(256);
		return generator.generateKeyPair();
	}

	private static Date notBefore() {
		// A little in the past: clocks of the JVMs reading it may differ by a moment.
		return Date.from(Instant.now().minus(Duration.ofMinutes(5)));
	}

	private static Date notAfter() {
		return Date.from(Instant.now().plus(VALIDITY));
	}

	/** The extensions of a certificate being built. */
	@FunctionalInterface
	private interface Extensions {

		void addTo(X509v3CertificateBuilder builder) throws CertIOException;

	}

}
