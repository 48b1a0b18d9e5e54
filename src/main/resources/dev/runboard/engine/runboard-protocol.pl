# The supervisor's protocol as bin/runboard's Perl clients speak it (runboard-client.pl, bin/runboard-exec.pl),
# installed with the thin client in the data dir's bin/ by the supervisor (engine/ClientScripts):
# one connection per call, a JSON request line, reply lines with heartbeats between them (docs/PROTOCOL.md).
# Loaded with `require` by the clients, which set $Runboard::Protocol::data (the data dir, named in messages).
# No modules, as the wrapper: each costs milliseconds of start (Socket 10 ms, Digest::SHA 7 ms); the socket is
# opened with builtins, and bytes travel as hex.
package Runboard::Protocol;
use strict;

# engine/Protocol.java's VERSION: a supervisor of another version refuses the request, and the client hands the
# call to a JVM, which says so in one line (ProtocolMismatchTest).
sub VERSION () { 4 }

our $data = '';
# How long the supervisor may stay silent (ReplyReader.java): while a request lasts it sends a heartbeat line
# every second; RUNBOARD_SUPERVISOR_SILENCE (3s, 500ms, 10) overrides the 10 s, as for the JVM.
our $silence = 10;
if (($ENV{RUNBOARD_SUPERVISOR_SILENCE} // '') =~ /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/) {
    $silence = $2 && $2 eq 'ms' ? $1 / 1000 : $1;
}
# Set when a reply did not come in time: what to say instead of the answer.
our $silent;

# Bytes as a JSON string, escaped as the supervisor's Jackson writes the same text (RequestCorpusTest compares
# the lines byte for byte): a quote, a backslash and \b \t \n \f \r by their short escapes, other control
# characters as \u00XX; UTF-8 as it is; each byte of a sequence that is not UTF-8 as \udcXX, the escape that
# carries it into a Java string and back out as that byte (session/RawText), where a raw byte would read as U+FFFD.
my %SHORT = ('"' => '\\"', '\\' => '\\\\', "\x08" => '\\b', "\t" => '\\t', "\n" => '\\n', "\f" => '\\f', "\r" => '\\r');
sub json_string {
    my ($t) = @_;
    $t =~ s{([\x00-\x1f"\\])|([\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}
            |\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2})
            |([\x80-\xff])}
           {defined $1 ? $SHORT{$1} // sprintf('\\u%04X', ord $1) : defined $2 ? $2 : sprintf('\\u%04x', 0xdc00 | ord $3)}gex;
    return "\"$t\"";
}

# Bytes as a JSON string of hex: what the supervisor decodes exactly, UTF-8 or not.
sub hex_string {
    return '"' . unpack('H*', $_[0]) . '"';
}

# A connection to the supervisor listening on $path, or undef (nobody listens, or not our own user).
sub connect_supervisor {
    my ($path) = @_;
    my $s;
    # PF_UNIX, SOCK_STREAM and a struct sockaddr_un (family, path) as Linux has them.
    socket($s, 1, 1, 0) && connect($s, pack('S Z*', 1, $path)) or return undef;
    # Only a supervisor of our own user hears a request: the kernel says who listens (SO_PEERCRED, a struct
    # ucred of pid, uid, gid). Another user's listener gets nothing; the JVM takes over, and says so.
    my $cred = getsockopt($s, 1, 17);    # SOL_SOCKET, SO_PEERCRED
    my (undef, $uid) = defined $cred ? unpack('i I I', $cred) : ();
    if (!defined $uid || $uid != $>) {
        print STDERR "runboard: not using the supervisor socket $path: it is served by uid "
            . ($uid // '?') . ", not by you ($>)\n";
        close($s);
        return undef;
    }
    my $old = select($s);
    $| = 1;
    select($old);
    return $s;
}

# The supervisor's pid, from the connection's credentials.
sub peer_pid {
    my ($s) = @_;
    my $cred = getsockopt($s, 1, 17);
    my ($pid) = defined $cred ? unpack('i', $cred) : ();
    return $pid;
}

# The supervisor's next line on $s, heartbeats skipped: undef when it closed the connection or stayed silent
# past the limit ($silent then says so, naming its pid and what to do). $also, when given, is [HANDLE, CODE]:
# while waiting, CODE is called each time HANDLE is readable (the thin client's stdin, relayed), and the handle
# is no longer watched once CODE returns false.
my %unread;
sub read_reply {
    my ($s, $also) = @_;
    my $buffer = \$unread{ fileno($s) };
    $$buffer //= '';
    while (1) {
        my $end = index($$buffer, "\n");
        if ($end >= 0) {
            my $line = substr($$buffer, 0, $end + 1, '');
            next if $line =~ /^\{"v":\d+,"heartbeat":true\}\r?\n\z/;
            return $line;
        }
        my $rin = '';
        vec($rin, fileno($s), 1) = 1;
        my $watched = $also && $also->[0];
        vec($rin, fileno($watched), 1) = 1 if $watched;
        my $ready = select(my $rout = $rin, undef, undef, $silence);
        next if $ready < 0 && $!{EINTR};    # a signal (Ctrl-C, CHLD): its handler has run; go on waiting
        if ($ready <= 0) {
            my $pid = peer_pid($s);
            my $state = '';
            if ($pid && open(my $stat, '<', "/proc/$pid/stat")) {
                ($state) = (<$stat> // '') =~ /\) (\S)/;
            }
            $pid ||= '<its pid>';
            $silent = "the supervisor (pid $pid) has not answered for ${silence} s"
                . ($state =~ /^[Tt]$/
                    ? ": it is stopped (a STOP signal or a debugger); 'kill -CONT $pid' resumes it, or"
                    : " (busy or hung; its log: $data/supervisor.log);")
                . " 'kill $pid' ends it and the next runboard command starts another (sessions keep running)";
            return undef;
        }
        if ($watched && vec($rout, fileno($watched), 1)) {
            $also->[0] = undef unless $also->[1]->();
            next unless vec($rout, fileno($s), 1);
        }
        my $got = sysread($s, $$buffer, 65536, length $$buffer);
        next if !defined $got && $!{EINTR};
        return undef unless $got;
    }
}

# All of $bytes written to the handle (a pipe may take them in parts); false when the reader has gone.
sub write_all {
    my ($fh, $bytes) = @_;
    for (my $at = 0; $at < length $bytes;) {
        my $n = syswrite($fh, $bytes, length($bytes) - $at, $at);
        if (!defined $n) {
            next if $!{EINTR};
            return 0;
        }
        $at += $n;
    }
    return 1;
}

1;
