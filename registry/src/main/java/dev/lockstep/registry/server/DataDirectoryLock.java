package dev.lockstep.registry.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exclusive hold of a registry on its data directory: a file lock against other
 * processes, and a set of this JVM's directories against other registries of the same
 * process (a second channel on a locked file must never be opened there, as closing it
 * would release the first's lock: POSIX locks are per process).
 */
final class DataDirectoryLock implements AutoCloseable {

	private static final String LOCK_FILE = "registry.lock";

	private static final Set<Path> LOCKED = ConcurrentHashMap.newKeySet();

	private final Path directory;

	private final FileChannel channel;

	private DataDirectoryLock(Path directory, FileChannel channel) {
		this.directory = directory;
		this.channel = channel;
	}

	/**
	 * Take a directory, creating it when missing.
	 * @param directory the absolute, normalized directory
	 * @return the hold, to close when done
	 * @throws IllegalStateException when another registry, of this process or another, holds it
	 * @throws UncheckedIOException when the directory cannot be used
	 */
	static DataDirectoryLock acquire(Path directory) {
		if (!LOCKED.add(directory)) {
			throw new IllegalStateException("The schema registry's data directory " + directory
					+ " is in use by another registry of this process");
		}
		FileChannel channel = null;
		try {
			Files.createDirectories(directory);
			channel = FileChannel.open(directory.resolve(LOCK_FILE), StandardOpenOption.CREATE,
					StandardOpenOption.WRITE);
			if (tryLock(channel) == null) {
				throw new IllegalStateException("The schema registry's data directory " + directory
						+ " is in use by another process");
			}
			return new DataDirectoryLock(directory, channel);
		}
		catch (IOException ex) {
			new DataDirectoryLock(directory, channel).close();
			throw new UncheckedIOException("Could not use " + directory + " for the schema registry's data", ex);
		}
		catch (RuntimeException ex) {
			new DataDirectoryLock(directory, channel).close();
			throw ex;
		}
	}

	private static FileLock tryLock(FileChannel channel) throws IOException {
		try {
			return channel.tryLock();
		}
		catch (OverlappingFileLockException ex) {
			return null;
		}
	}

	@Override
	public void close() {
		try {
			if (this.channel != null) {
				// Closing the channel releases the file lock.
				this.channel.close();
			}
		}
		catch (IOException ex) {
			// Nothing more to release.
		}
		finally {
			LOCKED.remove(this.directory);
		}
	}

}
