# bin/runboard's exec client: when the data dir's supervisor is up, the command bin/runboard launched
# early is handed to it, and no JVM starts beside the command (docs/BENCHMARKS.md §10, round 15): on two
# cores, a 1 GiB command of 1.8 s took 1.084x the shell redirect's time through exec's JVM and 1.039x through
# this client, in one run of 150 pairs. It costs a Perl start and two requests.
#
#   perl runboard-exec.pl SOCKET WRAPPER_PID LAUNCHED_MS SESSION_ID DATA_DIR
#                         N SPEC_ARG... M GIVEN_ARG... JAVA... -jar JAR
#
# SPEC_ARG: exec's options and command as the supervisor's `start` parses them (--cwd, --shell, --, the
# words); GIVEN_ARG: bin/runboard's own arguments (exec ...); JAVA ... -jar JAR: the JVM bin/runboard
# would have run. bin/runboard exec'd into this script, so the wrapper is this process's child and names
# it its adopter (RUNBOARD_ADOPTER): it ends the command if this process dies before a record exists.
#
# Until the supervisor has taken the session (a refusal, no answer, another protocol version), this
# execs into that JVM, which adopts the command as before (RUNBOARD_EARLY is in the environment). After,
# the session is the supervisor's: this waits for its child, says so, and prints the final snapshot the
# supervisor answers with, exiting with exec's exit code, as exec's JVM would. Ctrl-C (INT, TERM, HUP)
# asks the supervisor to kill the tree, then does the same, exiting 128 + the signal as a JVM does.
# No modules, as the wrapper: each costs milliseconds of start on the command's cores (Socket 10 ms,
# Digest::SHA 7 ms); the socket is opened with builtins, and the snapshot comes as hex.
use strict;

# engine/Protocol.java's VERSION: the supervisor refuses another one, and the JVM takes over (EarlyExecTest
# fails then: it expects this client, not a JVM, to wait for the command).
sub PROTOCOL () { 3 }
my %SIGNUM = (HUP => 1, INT => 2, TERM => 15);

my ($socket_path, $wrapper, $launched_ms, $id, $data) = splice(@ARGV, 0, 5);
my @spec = splice(@ARGV, 0, shift @ARGV);
my @given = splice(@ARGV, 0, shift @ARGV);
my @java = @ARGV;
$SIG{PIPE} = sub { };    # a supervisor gone mid-request is an error from print, not this process's death

sub jvm_instead {
    exec { $java[0] } @java, @given;
    print STDERR "runboard: cannot run $java[0]: $!\n";
    exit 125;
}

sub json_string {
    my ($t) = @_;
    $t =~ s/(["\\])/\\$1/g;
    $t =~ s/([\x00-\x1f])/sprintf('\\u%04x', ord $1)/ge;
    return "\"$t\"";
}

sub connect_supervisor {
    my $s;
    # PF_UNIX, SOCK_STREAM and a struct sockaddr_un (family, path) as Linux has them: bin/runboard
    # launches early on Linux only.
    socket($s, 1, 1, 0) && connect($s, pack('S Z*', 1, $socket_path)) or return undef;
    # Only a supervisor of our own user hears the spec: the kernel says who listens (SO_PEERCRED, a struct
    # ucred of pid, uid, gid). Another user's listener gets nothing; exec's own JVM takes over.
    my $cred = getsockopt($s, 1, 17);    # SOL_SOCKET, SO_PEERCRED
    my (undef, $uid) = defined $cred ? unpack('i I I', $cred) : ();
    if (!defined $uid || $uid != $>) {
        print STDERR "runboard: not using the supervisor socket $socket_path: it is served by uid "
            . ($uid // '?') . ", not by you ($>)\n";
        close($s);
        return undef;
    }
    my $old = select($s);
    $| = 1;
    select($old);
    return $s;
}

# A request about this session, sent; FIELDS: more of the object, each with its leading comma.
sub send_request {
    my ($s, $op, $fields) = @_;
    return print {$s} '{"v":' . PROTOCOL . ',"op":"' . $op . '","id":' . json_string($id) . $fields . "}\n";
}

# How long the supervisor may stay silent (ReplyReader.java): while a request lasts it sends a heartbeat
# line every second; RUNBOARD_SUPERVISOR_SILENCE (3s, 500ms, 10) overrides the 10 s, as for the JVM.
my $silence = 10;
if (($ENV{RUNBOARD_SUPERVISOR_SILENCE} // '') =~ /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/) {
    $silence = $2 && $2 eq 'ms' ? $1 / 1000 : $1;
}
my $silent;    # set when a reply did not come: what to say instead of the answer

# The supervisor's next line on $s, heartbeats skipped: undef when it closed the connection or stayed
# silent past the limit ($silent then says so, naming its pid from the socket's credentials).
my %unread;
sub read_reply {
    my ($s) = @_;
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
        my $ready = select(my $rout = $rin, undef, undef, $silence);
        next if $ready < 0 && $!{EINTR};    # a signal (Ctrl-C, CHLD): its handler has run; go on waiting
        if ($ready <= 0) {
            my $cred = getsockopt($s, 1, 17);    # SOL_SOCKET, SO_PEERCRED: the supervisor's pid
            my ($pid) = defined $cred ? unpack('i', $cred) : ();
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
        my $got = sysread($s, $$buffer, 65536, length $$buffer);
        next if !defined $got && $!{EINTR};
        return undef unless $got;
    }
}

# A request sent and its one-line answer read: undef when the supervisor is gone or silent.
sub request {
    my ($s, $op, $fields) = @_;
    send_request($s, $op, $fields) or return undef;
    return read_reply($s);
}

# Ctrl-C at any moment from here: before the supervisor has the session it is only noted (and acted on
# once it has, or by leaving: the wrapper ends a command nobody recorded); after, the supervisor is asked
# to kill the tree, over a connection of its own: it answers that once the session has ended, which it
# hears of from this process, on the first connection.
my ($caught, $adopted, $killing);
sub kill_tree {
    return if $killing;
    $killing = connect_supervisor();
    if ($killing) {
        send_request($killing, 'kill', '');
    } else {
        $killing = 1;
        kill('TERM', $wrapper);    # no supervisor to ask: TERM to the wrapper asks it for the session's kill
    }
}
for my $name (keys %SIGNUM) {
    $SIG{$name} = sub {
        $caught ||= $name;
        kill_tree() if $adopted;
    };
}

# bin/runboard forked the wrapper a moment ago: until that fork has exec'd perl, /proc shows it without the
# session's tag and the supervisor refuses to adopt it (on a loaded machine this client got there first,
# and exec fell back to a JVM). Wait for the tag, briefly; past that, ask anyway and let the answer decide.
sub wrapper_tagged {
    open(my $env, '<', "/proc/$wrapper/environ") or return 1;    # gone: the supervisor will say so
    local $/;
    my $all = <$env>;
    return defined $all && index("\0$all", "\0RUNBOARD_SESSION=$id\0") >= 0;
}
for (my $tries = 0; $tries < 1000 && !wrapper_tagged(); $tries++) {
    select(undef, undef, undef, 0.002);
}

my $supervisor = connect_supervisor();
my $reply = $supervisor && request($supervisor, 'adopt_exec',
    ",\"pid\":$wrapper,\"launched_ms\":$launched_ms,\"argv\":[" . join(',', map { json_string($_) } @spec) . ']');
if (!defined $reply || $reply !~ /^\{"v":\d+,"ok":true[,}]/) {
    exit(128 + $SIGNUM{$caught}) if $caught;    # the wrapper, its adopter gone and no record, ends the command
    print STDERR "runboard: $silent; exec runs without it\n" if $silent;
    jvm_instead();
}
$adopted = 1;
kill_tree() if $caught;
# The command's end is its status: the wrapper writes it, and stays on while processes the command left
# behind live (it owns them), sending this process SIGCHLD once the status is there. A wrapper that died
# without one (killed) leaves the session to the supervisor, which watches the command on: the answer below
# comes when it ends. The alarm is a backstop for a SIGCHLD that came just before the wait began.
my $status = "$data/sessions/$id/exit-status";
until (-e $status) {
    my $reaped = eval {
        local $SIG{CHLD} = sub { die "runboard-exec: ended\n" if -e $status };
        local $SIG{ALRM} = sub { die "runboard-exec: look\n" };
        alarm(1);
        my $got = -e $status ? 0 : waitpid($wrapper, 0);    # restarted after a handler that did not die
        alarm(0);
        $got;
    };
    alarm(0);
    last if defined $reaped && $reaped != 0;    # the wrapper has exited (or was reaped): the answer decides
}

my $ended = request($supervisor, 'exec_exited', '');
if (defined $ended && $ended =~ /"ok":true,"exit":(\d+),"snapshot_hex":"([0-9a-f]*)"/) {
    my ($code, $hex) = ($1, $2);
    my $out = pack('H*', $hex) . "\n";
    for (my $at = 0; $at < length $out;) {
        my $n = syswrite(STDOUT, $out, length($out) - $at, $at);
        last unless defined $n;
        $at += $n;
    }
    exit($caught ? 128 + $SIGNUM{$caught} : $code);
}
if ($silent) {
    # It holds the session's record: nothing else may write it. Say so, and what to do.
    print STDERR "runboard: $silent; the command has ended ('runboard show $id' says how, once it answers)\n";
    exit 1;
}
# The supervisor that took the session is gone: the next one adopts it, and the CLI's wait and show
# (which bring one up) say how it ended.
print STDERR "runboard: the supervisor stopped answering"
    . (defined $ended && $ended =~ /"error":"((?:[^"\\]|\\.)*)"/ ? " ($1)" : '') . "; asking the next one\n";
system { $java[0] } @java, 'wait', '--data-dir', $data, $id;
my $code = $? == -1 ? 125 : $? & 127 ? 128 + ($? & 127) : $? >> 8;
system { $java[0] } @java, 'show', '--data-dir', $data, $id;
exit $code;
