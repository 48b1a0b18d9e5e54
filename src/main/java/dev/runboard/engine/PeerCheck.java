package dev.runboard.engine;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import jdk.net.ExtendedSocketOptions;

/**
 * Who is at the other end of a Unix socket: only the supervisor's own user may drive it, and a
 * client talks only to a supervisor of its own user (a socket path under a runtime folder another
 * user controls could be anyone's listener: a spec, its environment and its keys must not reach it).
 *
 * <p>Users are compared by uid, never by name: the kernel gives the peer's uid, and its name needs
 * the user database, which a process out of descriptors cannot open (the JDK then names the user by
 * the number). A supervisor flooded with connections once refused its own user that way, as if a
 * stranger.
 */
final class PeerCheck {
    /** This process's user, found while descriptors are to be had (before any client comes). */
    private static final UserPrincipal SELF = self();

    private PeerCheck() {
    }

    static boolean sameUser(SocketChannel ch) throws IOException {
        return peer(ch).equals(SELF);
    }

    /** The user at the other end of the connection, for a message (its uid when its name cannot be looked up). */
    static String peerName(SocketChannel ch) throws IOException {
        return peer(ch).getName();
    }

    /** From the kernel (SO_PEERCRED); the JDK's principals are equal when their uids are. */
    private static UserPrincipal peer(SocketChannel ch) throws IOException {
        return ch.getOption(ExtendedSocketOptions.SO_PEERCRED).user();
    }

    private static UserPrincipal self() {
        try {
            return Files.getOwner(Path.of("/proc/self")); // owned by the process's effective uid
        } catch (IOException | RuntimeException noProc) {
            try {
                return FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(System.getProperty("user.name"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot tell which user this process runs as", e);
            }
        }
    }

    /** Thrown when the socket is served by another user: said in one line, never sent a byte. */
    static final class Impostor extends IOException {
        Impostor(String message) {
            super(message);
        }
    }
}
