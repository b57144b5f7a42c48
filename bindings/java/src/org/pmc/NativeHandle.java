package org.pmc;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongConsumer;

/**
 * Owns one pmc handle (a C pointer) and enforces pmc.h's thread-safety rule:
 * reading a handle may happen on many threads at once, while changing or
 * freeing it needs exclusive access. Readers hold the read lock for the
 * duration of the native call, writers and {@link #close()} the write lock;
 * so close() waits for calls in flight and every later call throws
 * {@link IllegalStateException} instead of passing a freed pointer to C.
 *
 * <p>A {@link Cleaner} frees handles that become unreachable without being
 * closed. It is a safety net, not the way to manage them: native memory
 * (a model can hold gigabytes) is invisible to the garbage collector, so
 * close handles with try-with-resources.
 */
abstract class NativeHandle implements AutoCloseable {
  private static final Cleaner CLEANER = Cleaner.create();

  /** Frees the pointer at most once; must not refer to the handle object. */
  private static final class Releaser implements Runnable {
    private final LongConsumer free;
    private long pointer;

    Releaser(long pointer, LongConsumer free) {
      this.pointer = pointer;
      this.free = free;
    }

    @Override
    public void run() {
      long p = pointer;
      pointer = 0;
      if (p != 0) {
        free.accept(p);
      }
    }
  }

  private final ReentrantReadWriteLock lock;
  private final Releaser releaser;
  private final Cleaner.Cleanable cleanable;
  /** Written under the write lock; volatile so that isClosed() needs no lock. */
  private volatile boolean closed;

  /**
   * Takes ownership of {@code pointer} (non-zero) at once: if this
   * constructor fails (out of memory), it frees the pointer itself.
   */
  NativeHandle(long pointer, LongConsumer free) {
    Releaser r;
    ReentrantReadWriteLock l;
    try {
      r = new Releaser(pointer, free);
      l = new ReentrantReadWriteLock();
    } catch (Throwable t) {
      free.accept(pointer);
      throw t;
    }
    Cleaner.Cleanable c;
    try {
      c = CLEANER.register(this, r);
    } catch (Throwable t) {
      r.run();  // idempotent: a Cleaner run later finds pointer == 0
      throw t;
    }
    releaser = r;
    lock = l;
    cleanable = c;
  }

  /** The type name used in messages ("Model", "Options", "Result"). */
  abstract String kind();

  /**
   * Locks the handle for a read and returns its pointer; pair with
   * {@link #releaseShared()} in a finally block.
   */
  final long acquireShared() {
    Native.checkNotInListener();
    lock.readLock().lock();
    long p = releaser.pointer;
    if (p == 0) {
      lock.readLock().unlock();
      throw closedException();
    }
    return p;
  }

  final void releaseShared() {
    lock.readLock().unlock();
    // Keeps this object (and so its Cleaner action) from running while the
    // native call that used the pointer may still be in progress.
    Reference.reachabilityFence(this);
  }

  /** Like {@link #acquireShared()}, for calls that change the handle. */
  final long acquireExclusive() {
    Native.checkNotInListener();
    lock.writeLock().lock();
    long p = releaser.pointer;
    if (p == 0) {
      lock.writeLock().unlock();
      throw closedException();
    }
    return p;
  }

  final void releaseExclusive() {
    lock.writeLock().unlock();
    Reference.reachabilityFence(this);
  }

  /**
   * The read lock without waiting behind a queued writer, for calls pmc.h
   * declares safe during concurrent use (pmc_options_request_cancel): a
   * thread that wants to cancel a long check must not queue behind a
   * close() that waits for that same check. Returns 0 once closed.
   */
  final long tryAcquireSharedNoWait() {
    while (true) {
      if (lock.readLock().tryLock()) {
        long p = releaser.pointer;
        if (p == 0) {
          lock.readLock().unlock();
        }
        return p;
      }
      if (closed) {
        return 0;
      }
      // A writer holds the lock: a setter (brief) or close() (frees it).
      Thread.onSpinWait();
    }
  }

  /** Whether {@link #close()} has run. */
  public final boolean isClosed() {
    return closed;
  }

  /**
   * Frees the native object. Idempotent. Waits for calls on this handle
   * that are in progress on other threads (for example a long check) to
   * finish; afterwards every method except close() and isClosed() throws
   * {@link IllegalStateException}.
   */
  @Override
  public final void close() {
    if (closed) {
      return;
    }
    Native.checkNotInListener();
    lock.writeLock().lock();
    try {
      closed = true;
      cleanable.clean();
    } finally {
      lock.writeLock().unlock();
    }
  }

  private IllegalStateException closedException() {
    return new IllegalStateException("this " + kind() + " is closed");
  }

  @Override
  public String toString() {
    return closed ? kind() + "[closed]" : kind() + "[open]";
  }
}
