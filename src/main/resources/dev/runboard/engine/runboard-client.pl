# bin/runboard's thin client: when the data dir's supervisor is up, every subcommand but exec, open and supervisor
# is run there, by the CLI's own code, and no JVM starts for it (docs/BENCHMARKS.md §17, docs/PROTOCOL.md). This sends the command
# line, the environment, the folder and whether stdin and stdout are a terminal, all as the bytes they are;
# writes what the command prints to stdout and stderr as it comes; and exits with its exit code.
#
#   perl DATA_DIR/bin/runboard-client.pl SOCKET DATA_DIR N ARG... JAVA... -jar JAR
#
# The supervisor installs this file and runboard-protocol.pl in its data dir's bin/ as it starts
# (engine/ClientScripts): the client is always of the running supervisor's version.
# ARG: bin/runboard's arguments; JAVA ... -jar JAR: the JVM bin/runboard would have run. Until the supervisor has
# taken the call (nobody listens, another user does, another protocol version answers), this execs into that JVM,
# which starts a supervisor when none runs or says in one line what is wrong. A supervisor that goes before the
# command has printed anything has a command that only reads run again by the JVM; one that acts (kill, start)
# is not sent twice, and the line says how to check. Ctrl-C ends this process: the supervisor notices at its next
# frame or heartbeat and stops the command (a `tail -f`, a `wait`).
# A command that reads this client's stdin (an `exec --host`) asks for it once ({"v":4,"want_in":true}): from then on
# what stdin brings is sent as it comes ({"v":4,"in":HEX}, then {"v":4,"in_end":true}), and Ctrl-C (INT, TERM,
# HUP) is sent too ({"v":4,"signal":"INT"}): the supervisor kills the command's tree and answers with its end, and
# this exits 128 + the signal, as a JVM does; a second Ctrl-C exits at once. Until asked, stdin is not read.
use strict;

my $here = $0 =~ m{^(.*)/} ? $1 : '.';
require "$here/runboard-protocol.pl";

my ($socket_path, $data) = splice(@ARGV, 0, 2);
my @args = splice(@ARGV, 0, shift @ARGV);
my @java = @ARGV;
$Runboard::Protocol::data = $data;
$SIG{PIPE} = sub { };    # a supervisor gone mid-request is an error from print, not this process's death

# The commands that only read or wait: asked again of a JVM (and the next supervisor) if this one goes first.
my %READS = map { $_ => 1 } qw(list show wait tail grep history diff help);

sub jvm_instead {
    exec { $java[0] } @java, @args;
    print STDERR "runboard: cannot run $java[0]: $!\n";
    exit 125;
}

my $s = Runboard::Protocol::connect_supervisor($socket_path) or jvm_instead();
my $folder = readlink('/proc/self/cwd') // $ENV{PWD} // '/';
my $request = '{"v":' . Runboard::Protocol::VERSION() . ',"op":"cli","argv":['
    . join(',', map { Runboard::Protocol::hex_string($_) } @args) . '],"env":['
    . join(',', map { Runboard::Protocol::hex_string("$_=$ENV{$_}") } sort keys %ENV) . '],"cwd":'
    . Runboard::Protocol::hex_string($folder) . ',"terminal":' . (-t STDIN && -t STDOUT ? 'true' : 'false') . "}\n";
print {$s} $request or jvm_instead();

my %SIGNUM = (HUP => 1, INT => 2, TERM => 15);
my ($relay, $signalled);

# One read of stdin sent on; false once it has ended (the end sent too, as for a read that failed).
sub relay_input {
    my $got = sysread(STDIN, my $bytes, 65536);
    return 1 if !defined $got && $!{EINTR};
    if ($got) {
        return print {$s} '{"v":' . Runboard::Protocol::VERSION() . ',"in":"' . unpack('H*', $bytes) . "\"}\n";
    }
    print {$s} '{"v":' . Runboard::Protocol::VERSION() . ",\"in_end\":true}\n";
    return 0;
}

sub relay_signals {
    for my $name (keys %SIGNUM) {
        $SIG{$name} = sub {
            exit(128 + $SIGNUM{$signalled}) if $signalled;
            $signalled = $name;
            print {$s} '{"v":' . Runboard::Protocol::VERSION() . ',"signal":"' . $name . "\"}\n";
        };
    }
}

my $printed = 0;
my %out = (out => \*STDOUT, err => \*STDERR);
while (defined(my $line = Runboard::Protocol::read_reply($s, $relay))) {
    if ($line =~ /^\{"v":\d+,"want_in":true\}\n\z/) {
        $relay = [\*STDIN, \&relay_input];
        relay_input() if !defined fileno(STDIN);    # no stdin at all: its end at once
        $relay = undef if !defined fileno(STDIN);
        relay_signals();
    } elsif ($line =~ /^\{"v":\d+,"(out|err)":"([0-9a-f]*)"\}\n\z/) {
        $printed = 1;
        # A reader gone (`runboard list | head`): end as a JVM's print to a closed pipe ends, quietly.
        Runboard::Protocol::write_all($out{$1}, pack('H*', $2)) or exit 1;
    } elsif ($line =~ /^\{"v":\d+,"ok":true,"exit":(\d+)\}\n\z/) {
        exit($signalled ? 128 + $SIGNUM{$signalled} : $1);
    } elsif (!$printed) {
        jvm_instead();    # a refusal (another protocol version): the JVM asks again and says it in one line
    } else {
        print STDERR "runboard: the supervisor answered what this client cannot read; 'runboard supervisor status' says"
            . " which runboard it is\n";
        exit 1;
    }
}
if ($Runboard::Protocol::silent) {
    print STDERR "runboard: $Runboard::Protocol::silent\n";
    exit 1;
}
jvm_instead() if !$printed && $READS{ $args[0] // '' };
my $pid = Runboard::Protocol::peer_pid($s) || '?';
print STDERR "runboard: the supervisor (pid $pid) ended during the call; 'runboard list' shows whether it was"
    . " carried out (its log: $data/supervisor.log)\n";
exit 1;
