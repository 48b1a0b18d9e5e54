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
# No modules, as the wrapper: each costs milliseconds of start on the command's cores; the protocol is
# runboard-protocol.pl's, which both Perl clients load, and the snapshot comes as hex.
use strict;

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

sub connect_supervisor {
    return Runboard::Protocol::connect_supervisor($socket_path);
}

# Connecting, heartbeats, silence: as the thin client, whose code the supervisor installs in its data dir's bin/
# (engine/ClientScripts). A supervisor from before that has none: the JVM takes over, as for any refusal.
eval { require "$data/bin/runboard-protocol.pl" } or jvm_instead();
$Runboard::Protocol::data = $data;

# A request about this session, sent; FIELDS: more of the object, each with its leading comma.
sub send_request {
    my ($s, $op, $fields) = @_;
    return print {$s} '{"v":' . Runboard::Protocol::VERSION() . ',"op":"' . $op . '","id":'
        . Runboard::Protocol::json_string($id) . $fields . "}\n";
}

# A request sent and its one-line answer read: undef when the supervisor is gone or silent.
sub request {
    my ($s, $op, $fields) = @_;
    send_request($s, $op, $fields) or return undef;
    return Runboard::Protocol::read_reply($s);
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
    ",\"pid\":$wrapper,\"launched_ms\":$launched_ms,\"argv\":[" . join(',', map { Runboard::Protocol::json_string($_) } @spec) . ']');
if (!defined $reply || $reply !~ /^\{"v":\d+,"ok":true[,}]/) {
    exit(128 + $SIGNUM{$caught}) if $caught;    # the wrapper, its adopter gone and no record, ends the command
    print STDERR "runboard: $Runboard::Protocol::silent; exec runs without it\n" if $Runboard::Protocol::silent;
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
    Runboard::Protocol::write_all(\*STDOUT, pack('H*', $hex) . "\n");
    exit($caught ? 128 + $SIGNUM{$caught} : $code);
}
if ($Runboard::Protocol::silent) {
    # It holds the session's record: nothing else may write it. Say so, and what to do.
    print STDERR "runboard: $Runboard::Protocol::silent; the command has ended ('runboard show $id' says how, once it answers)\n";
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
