# runboard's session wrapper: runs the command as its child and records how it ended, so the exit
# status survives runboard itself dying. Usage: perl runboard-wrap.pl STATUS_FILE COMMAND [ARG...]
#
# Why a separate process: the status must be written by something that outlives the command, and
# `exit` inside a shell command must still be seen, so the command cannot be sourced.
# Why Perl: it tells "killed by signal N" from "exit 128+N", which a shell's $? cannot.
use strict;
use warnings;
use POSIX ();

my $status_file = shift @ARGV;
die "runboard-wrap: no command\n" unless @ARGV;

# Lead a process group of our own (a tree kill signals the group) but stay in runboard's session:
# on Linux a new session is also a new scheduler autogroup, weighted like a whole application, so
# twenty busy sessions would leave the window a twenty-first of the CPU. Let go of the controlling
# terminal instead, as setsid would, so a command that opens /dev/tty fails at once rather than
# stopping on SIGTTIN.
# A PTY session is already the leader of its own session, with the PTY as its terminal: keep both.
if (getpgrp() != $$) {
    POSIX::setpgid(0, 0) or die "runboard-wrap: setpgid: $!\n";
    if ($^O eq 'linux' && open(my $tty, '+<', '/dev/tty')) {
        ioctl($tty, 0x5422, 0);    # TIOCNOTTY
        close($tty);
    }
}

# Survive the signals a kill sends to the whole group, so the child's end can be recorded. These are
# handlers, not SIG_IGN: exec resets handlers to the default, so the command starts with default
# dispositions (an ignored signal would be inherited).
my @forwarded = qw(TERM INT HUP QUIT USR1 USR2 ALRM);
$SIG{$_} = sub { } for @forwarded;

my $pid = fork();
if (!defined $pid) {
    print STDERR "runboard: cannot start the command: fork failed: $!\n";
    exit 126;
}
if ($pid == 0) {
    $SIG{$_} = 'DEFAULT' for @forwarded;
    { no warnings 'exec'; exec { $ARGV[0] } @ARGV; }
    my $err = $!;
    print STDERR "runboard: cannot run $ARGV[0]: $err\n";
    POSIX::_exit($!{ENOENT} ? 127 : 126);
}

my $waited;
do { $waited = waitpid($pid, 0); } while ($waited == -1 && $!{EINTR});
my $status = $?;

my ($line, $signal, $code);
if ($status & 127) {
    $signal = $status & 127;
    $line = "signal $signal\n";
} else {
    $code = $status >> 8;
    $line = "exit $code\n";
}
my $tmp = "$status_file.tmp";
if (open(my $fh, '>', $tmp)) {
    print $fh $line;
    close($fh);
    rename($tmp, $status_file);
}

# 128+N for a signal death, as the JVM reports one; re-raising the signal could dump a core of perl.
exit(defined $signal ? 128 + $signal : $code);
