package dev.runboard.engine;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * Who is at the other end of a Unix socket: only the supervisor's own user may drive it, and a
 * client talks only to a supervisor of its own user (a socket path under a runtime folder another
 * user controls could be anyone's listener: a spec, its environment and its keys must not reach it).
 */
final class PeerCheck {
    private PeerCheck() {
    }

    static boolean sameUser(SocketChannel ch) throws IOException {
        return peerName(ch).equals(System.getProperty("user.name"));
    }

    /** The user at the other end of the connection (from the kernel: SO_PEERCRED). */
    static String peerName(SocketChannel ch) throws IOException {
        UnixDomainPrincipal peer = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
        return peer.user().getName();
    }

    /** Thrown when the socket is served by another user: said in one line, never sent a byte. */
    static final class Impostor extends IOException {
        Impostor(String message) {
            super(message);
        }
    }
}
