package dev.lockstep.kraft;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An exclusive lock on a file, among the processes of this machine that lock it through
 * this class (an advisory lock: others are not kept out). It is held until it is closed
 * or the JVM exits; keep a reference to it, as a lock no longer reachable is released
 * when its channel is collected.
 */
public final class InterProcessLock implements AutoCloseable {

	// Channels on files another part of this JVM holds locked: on some systems closing any
	// channel on a file releases every lock the JVM holds on it (FileLock), so they stay open.
	private static final List<FileChannel> keptOpen = Collections.synchronizedList(new ArrayList<>());

	private final FileChannel channel;

	private InterProcessLock(FileChannel channel) {
		this.channel = channel;
	}

	/**
	 * Take the lock on a file, created when missing, unless someone holds it.
	 * @param file the file
	 * @return the lock, or {@code null} when another process or this JVM holds it
	 * @throws IOException when the file cannot be opened or locked
	 */
	public static InterProcessLock tryLock(Path file) throws IOException {
		FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
		try {
			if (channel.tryLock() == null) {
				// Another process holds it; this JVM holds none on the file (it would have overlapped).
				channel.close();
				return null;
			}
			return new InterProcessLock(channel);
		}
		catch (OverlappingFileLockException ex) {
			keptOpen.add(channel);
			return null;
		}
		catch (IOException | RuntimeException ex) {
			channel.close();
			throw ex;
		}
	}

	/**
	 * Release the lock.
	 */
	@Override
	public void close() {
		try {
			this.channel.close();
		}
		catch (IOException ex) {
			// Closing releases the lock whatever it reports; nothing else is held.
		}
	}

}
