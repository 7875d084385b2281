package dev.lockstep.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS context a registry client trusts its registry with: the JVM's default, CA
 * certificates from a PEM file, or a trust store.
 */
final class RegistryTrust {

	private RegistryTrust() {
	}

	/**
	 * Build the client's TLS context.
	 * @param caCertificates a PEM file of CA certificates, or {@code null}
	 * @param trustStore a trust store, or {@code null}
	 * @return the context, or {@code null} for the JVM's default trust
	 * @throws IllegalArgumentException when the certificates cannot be loaded
	 */
	static SSLContext sslContext(Path caCertificates, KeyStore trustStore) {
		if (caCertificates == null && trustStore == null) {
			return null;
		}
		try {
			KeyStore trusted = (trustStore != null) ? trustStore : loadPem(caCertificates);
			TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trustManagers.init(trusted);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, trustManagers.getTrustManagers(), null);
			return context;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalArgumentException("Could not load registry CA certificates: " + ex.getMessage(), ex);
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
