package dev.lockstep.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS context a registry client trusts its registry with (the JVM's default, CA
 * certificates from a PEM file, or a trust store), and the client certificate it presents
 * when the registry asks for one.
 */
final class RegistryTrust {

	private RegistryTrust() {
	}

	/**
	 * Build the client's TLS context.
	 * @param caCertificates a PEM file of CA certificates, or {@code null}
	 * @param trustStore a trust store, or {@code null}
	 * @param keyStore a key store holding the client certificate, or {@code null}
	 * @param keyPassword the password of its key
	 * @return the context, or {@code null} for the JVM's defaults
	 * @throws IllegalArgumentException when the certificates or the key cannot be loaded
	 */
	static SSLContext sslContext(Path caCertificates, KeyStore trustStore, KeyStore keyStore, char[] keyPassword) {
		if (caCertificates == null && trustStore == null && keyStore == null) {
			return null;
		}
		try {
			// A null trust store: the JVM's default trust.
			KeyStore trusted = (trustStore != null) ? trustStore
					: (caCertificates != null) ? loadPem(caCertificates) : null;
			TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trustManagers.init(trusted);
			KeyManager[] keyManagers = null;
			if (keyStore != null) {
				KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
				factory.init(keyStore, keyPassword);
				keyManagers = factory.getKeyManagers();
			}
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(keyManagers, trustManagers.getTrustManagers(), null);
			return context;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalArgumentException("Could not load the registry's TLS certificates or key: "
					+ ex.getMessage(), ex);
		}
	}

	private static KeyStore loadPem(Path pemFile) throws GeneralSecurityException, IOException {
		KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
		store.load(null, null);
		try (InputStream in = Files.newInputStream(pemFile)) {
			int index = 0;
			for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
				store.setCertificateEntry("ca-" + index++, certificate);
			}
			if (index == 0) {
				throw new IOException("no certificate in " + pemFile);
			}
		}
		return store;
	}

}
