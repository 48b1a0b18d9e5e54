# runboard's session wrapper: the owner of a session's process tree. It runs the command as its
# child, holds its deadline, records how it ended, and is the one place where a session's processes
# are killed, here and on remote hosts (docs/PROCESS-TREE.md).
#
#   perl runboard-wrap.pl [--max-output BYTES] [--usage MS] STATUS_FILE DEADLINE_MS GRACE_MS COMMAND [ARG...]
#   perl runboard-wrap.pl --kill STATUS_FILE WRAPPER_PID WRAPPER_START SIGNAL GRACE_MS WHY TAG [PID:START...]
#   perl runboard-wrap.pl --kill -       (kills read from stdin, one a line: see serve_kills)
#
# Run mode. The wrapper is a child subreaper (PR_SET_CHILD_SUBREAPER): every orphaned descendant
# re-parents to it, whatever it does to its group, session, environment or name, so what the
# command starts stays below the wrapper until it ends. The command runs in a process group of its
# own (its pid), below the wrapper: group signals (pause, resume, Ctrl-C in a terminal) go to that
# group, and a stopped group is never orphaned while the wrapper lives. DEADLINE_MS is an absolute
# time in epoch milliseconds (0: none), or +MS: that long after this wrapper starts (a Slurm job's
# deadline counts from the job's start, not from its submission); GRACE_MS the time between TERM and KILL. In the session's
# folder (STATUS_FILE's) it writes:
#
#   command          "PID START_TICKS" of the command, as soon as it is forked
#   STATUS_FILE      when the command has ended, one line (temp file + rename):
#                      (own|killed|timeout) (exit N|signal N) at EPOCH_MS
#                    own: it ended before any kill's first signal; killed/timeout: after one. When
#                    the wrapper's deadline ended it, the kill's report follows (below).
#   kill-report      the report of a requested kill (temp file + rename)
#   output-trim      with --max-output, once the capture first passed BYTES (temp file + rename), one line:
#                      trimming DROPPED START            DROPPED bytes were cut from capture.log's start: its
#                                                        byte 0 is output byte DROPPED; START is the output byte
#                                                        of the first whole line kept
#                      pending DROPPED START LEN         a cut of LEN more bytes is under way (readers wait)
#                      unavailable DROPPED START WHY     trimming stopped for WHY; the rest is kept whole
#   usage            with --usage, every MS while the command runs (temp file + rename): the tree's CPU, memory and
#                    processes, for a runboard that cannot see this host's /proc (a Slurm job's node): "leader PID",
#                    "clock_ticks N", "page_size N", "uptime SECONDS", then one line per process, as runboard-remote.pl's
#                    poll writes them: "p s PID PPID PGID STATE START_TICKS TICKS CHILD_TICKS RSS_PAGES COMMAND"
#   signal-served    the answer to a signal-request: its line, then " sent" or " gone" (the request is then removed)
#
# and reads shutdown (written by runboard for a stack command with a shutdown step): whenever a kill
# begins with TERM, its command runs, or its signal is sent, in place of the TERM.
#
# Bounded output (--max-output). While the command runs, once capture.log passes BYTES the wrapper cuts whole
# blocks from its start in place (fallocate FALLOC_FL_COLLAPSE_RANGE), down to BYTES less a step of a tenth
# of it, and looks again as often as the capture's growth needs. Every writer appends (O_APPEND: the
# redirect runboard opened), so each write lands at the new end. A writer with an offset of its own would
# write past the end and leave NUL bytes: a process of the session holding the capture open for writing
# without O_APPEND, or a file system that cannot collapse (tmpfs, btrfs, NFS), stops trimming for good,
# with a line in the output and the reason in output-trim.
# A signal that does not end the session (pause, resume) is asked for by writing signal-request ("SIGNAL
# REQUESTED_MS") and sending the wrapper USR1: it goes to the command's group, as runboard sends it to a local one.
# A kill is asked for by writing kill-request ("SIGNAL GRACE_MS WHY REQUESTED_MS") and sending the
# wrapper USR1; TERM, INT or HUP sent to the wrapper itself ask for the same with TERM and its grace.
# When the command has ended and processes it started live on, the status is the command's and the
# wrapper stays: it reaps them, a kill still ends them, and it exits when the last has gone (its
# parent gets SIGCHLD when the status is written, so a parent waiting for it can stop waiting).
#
# Kill mode (--kill): what every runboard path runs to end a session. It writes kill-request, sends
# USR1 and waits for kill-report; when the wrapper is gone (or does not answer), it does the same kill
# itself, from the command's group, the session's tag and the processes named PID:START (those the
# owner last saw). Either way it prints the report on stdout:
#
#   requested_at MS / signal NAME / grace_ms N / term_at MS / done_at MS
#   own_exit                       the command had ended before the first signal
#   term PID START COMMAND         each process the first signal went to
#   kill PID START COMMAND         each process sent KILL (after the grace, or found later)
#   escaped PID START COMMAND      a killed process that had left the command's group
#   not_ours PID START COMMAND     a process of the session that belongs to another user (never signalled), alive at the end
#   survivor PID START COMMAND     a process of ours alive when the kill gave up
#   note TEXT
#
# Why Perl: it tells "killed by signal N" from "exit 128+N", which a shell's $? cannot.
# Why no modules: one wrapper stays beside every running command, so its memory counts once per
# session. POSIX costs 2 MB of private memory, warnings 0.3 MB, Time::HiRes 0.3 MB, Errno (%!)
# 0.15 MB; builtins do the same work, errno values are compared as numbers, and the clock and prctl
# are reached with syscall(). bench/wrapper-memory.sh measures it.
use strict;

# Constants as subs: `use constant` would load warnings.pm.
sub ENOENT () { 2 }
sub WNOHANG () { 1 }
sub WUNTRACED () { 2 }
sub SWEEP_MS () { 3000 }    # how long KILL passes go on finding new processes (fork loops)
sub ANSWER_SLACK_MS () { 5000 }    # how long --kill waits for a live wrapper beyond grace and sweep
sub POLL_S () { 0.01 }
sub TIOCSPGRP () { 0x5410 }
sub TIOCNOTTY () { 0x5422 }
sub EOPNOTSUPP () { 95 }
sub FALLOC_FL_COLLAPSE_RANGE () { 0x08 }
sub O_APPEND () { 02000 }
sub SYNC_FILE_RANGE_WRITE () { 2 }
sub SYNC_FILE_RANGE_WAIT_ALL () { 1 | 2 | 4 }    # WAIT_BEFORE | WRITE | WAIT_AFTER
sub POSIX_FADV_DONTNEED () { 4 }
sub TRIM_MIN_MS () { 2 }      # the most often a fast-growing capture is looked at
sub TRIM_MAX_MS () { 250 }    # the least often a quiet one is
sub FIRST_LINE_BYTES () { 65536 }    # how far past a cut the first whole line is looked for

my $machine = elf_machine();
my $clock = clock_syscall($machine);
my $prctl = { 62 => 157, 183 => 167, 243 => 167 }->{$machine} || 0;
my $fallocate = { 62 => 285, 183 => 47, 243 => 47 }->{$machine} || 0;
my $sync_range = { 62 => 277, 183 => 84, 243 => 84 }->{$machine} || 0;
my $fadvise = { 62 => 221, 183 => 223, 243 => 223 }->{$machine} || 0;

# The session: what the kill algorithm works on, in either mode.
my ($status_file, $dir, $tag);
my ($holder, $cmd_pid, $cmd_start) = (0, 0, 0);    # holder: this wrapper in run mode (the tree's root), 0 when killing without it
my %seen;                 # every process of the session seen since a kill began: pid => start ticks
my %spared;               # never signalled: this process, its ancestors, init
my %notes;                # what a kill deliberately left alone, one sentence each

if (@ARGV && $ARGV[0] eq '--kill') {
    shift @ARGV;
    kill_mode(@ARGV);
    exit 0;
}

my ($deadline_ms, $grace_ms);
my $max_output = 0;    # --max-output: the capture's bound in bytes (0: unbounded)
my $usage_ms = 0;      # --usage: how often the tree's usage is written (0: never; runboard samples /proc itself)
while (@ARGV >= 2 && $ARGV[0] =~ /^--(max-output|usage)$/) {
    my ($option, $value) = splice(@ARGV, 0, 2);
    ($option eq '--usage' ? $usage_ms : $max_output) = $value;
}
($status_file, $deadline_ms, $grace_ms) = splice(@ARGV, 0, 3);
die "runboard-wrap: usage: runboard-wrap.pl [--max-output BYTES] [--usage MS] STATUS_FILE DEADLINE_MS GRACE_MS COMMAND [ARG...]\n"
    unless @ARGV && defined $grace_ms && $deadline_ms =~ /^\+?\d+$/ && $grace_ms =~ /^\d+$/ && $max_output =~ /^\d+$/
    && $usage_ms =~ /^\d+$/;
$deadline_ms = now_ms() + $1 if $deadline_ms =~ /^\+(\d+)$/;
$dir = $status_file =~ m{^(.*)/[^/]*$} ? $1 : '.';
$tag = defined $ENV{RUNBOARD_SESSION} ? "RUNBOARD_SESSION=$ENV{RUNBOARD_SESSION}" : undef;
$holder = $$;

# Lead a process group of our own but stay in runboard's session: on Linux a new session is also a
# new scheduler autogroup, weighted like a whole application, so twenty busy sessions would leave
# the window a twenty-first of the CPU. Let go of the controlling terminal instead, as setsid would,
# so a command that opens /dev/tty fails at once rather than stopping on SIGTTIN.
# A PTY session's wrapper is already the leader of its own session, with the PTY as its terminal:
# it keeps both, and makes the command's group the terminal's foreground group (below).
my $pty_leader = getpgrp() == $$;
if (!$pty_leader) {
    setpgrp(0, 0) or die "runboard-wrap: setpgrp: $!\n";
    if ($^O eq 'linux' && open(my $tty, '+<', '/dev/tty')) {
        ioctl($tty, TIOCNOTTY, 0);
        close($tty);
    }
}
# Orphans re-parent to us (PR_SET_CHILD_SUBREAPER): nothing the command starts leaves the tree.
syscall($prctl, 36, 1) if $prctl;

my ($pid, $raw, $ended_at);    # the command, its wait status, and when it was seen ending
my $status_written;
my $kill_kind;                 # 'killed' or 'timeout' once a kill's first signal was sent while the command ran
my @timeout_report;            # the deadline kill's report, written below the status line
my ($request, $in_wait, $killing) = (0, 0, 0);
my $last_request = '';

# A signal to the wrapper itself is a request to end the session (its group is its own: no group
# signal meant for the command reaches it). USR1: read kill-request. ALRM wakes a deadline wait.
# The command's process inherits these until it resets them, a moment after its fork: a signal meant for it
# (the deadline's TERM on a busy machine) that lands in between is noted there and raised again once its
# disposition is the default (below), never swallowed.
my $child_signal;
$SIG{USR1} = sub { return if $$ != $holder; $request = 1; die "runboard-wrap: request\n" if $in_wait };
for my $name (qw(TERM INT HUP)) {
    $SIG{$name} = sub {
        return $child_signal = $name if $$ != $holder;
        $request = "TERM $grace_ms killed";
        die "runboard-wrap: request\n" if $in_wait;
    };
}
$SIG{$_} = sub { } for qw(QUIT USR2 ALRM);
$SIG{CHLD} = 'DEFAULT';    # an inherited SIG_IGN would reap the child before we could read its status
# Bounded output: the wrapper naps between looks at the capture; the command's end wakes it (CHLD).
my ($capture, $trim_file) = ("$dir/capture.log", "$dir/output-trim");
my ($trim_fh, $trim_step, $trim_off, $dropped, $kept_start) = (undef, 0, 0, 0, 0);
my ($trim_wait_ms, $trim_last_size, $trim_last_ms) = (TRIM_MIN_MS, 0, 0);
my ($napping, $chld_seen) = (0, 0);
my %proc_children;    # pid => children, when /proc has no children files (see children_of)
$SIG{CHLD} = sub { $chld_seen = 1; die "runboard-wrap: child\n" if $napping } if $max_output || $usage_ms;
my $usage_next = 0;    # when the usage file is written next (epoch ms)

# Started by bin/runboard before the runboard that adopts the session (RUNBOARD_ADOPTER, its pid: our
# parent) has started, so the command overlaps that JVM's start (docs/BENCHMARKS.md §10, round 11). If
# that parent dies before it wrote the session's record (a Ctrl-C in its first milliseconds), nobody
# would ever know of the command: the wrapper ends it. The kernel says when the parent dies
# (PR_SET_PDEATHSIG); once the record exists the session lives on without it, as any does.
my $adopter = delete $ENV{RUNBOARD_ADOPTER};
my $record_file = "$dir/session.json";
my $adopter_gone;
if (defined $adopter) {
    # The script made the session's files with the user's umask (a fork to change it would cost what early
    # launch saves): private from the start, whoever ends up recording the session.
    if (opendir(my $d, $dir)) {
        chmod(0600, map { "$dir/$_" } grep { !/^\.\.?\z/ } readdir($d));
        closedir($d);
    }
    # USR2 may also come from someone else: only a parent that is gone counts.
    $SIG{USR2} = sub {
        return if getppid() == $adopter;
        $adopter_gone = 1;
        $request = "TERM $grace_ms killed" if $pid && !-e $record_file && !defined $raw;
        die "runboard-wrap: request\n" if $in_wait && $request;
    };
    if (!$prctl || syscall($prctl, 1, 12) != 0 || getppid() != $adopter) {    # PR_SET_PDEATHSIG, SIGUSR2
        # Unwatched, or the adopter is already gone (a JVM that cannot start is gone in milliseconds, on a
        # busy machine before this line): the command is not started, and a gone adopter's folder goes, as
        # when it dies later (else its lock would show it as a session being made, for ever).
        forget_unadopted() if getppid() != $adopter && !-e $record_file;
        exit 125;
    }
}
# Environment entries and a working folder whose bytes are not UTF-8, which Java cannot pass as they are
# (RawLaunch.java): read from the file runboard named, which is deleted at once, and applied in the
# command's process below. Entries: a kind (C the folder, E an entry), the bytes, a NUL.
my ($raw_cwd, @raw_env, $raw_problem);
if (defined(my $raw_file = delete $ENV{RUNBOARD_LAUNCH_RAW})) {
    if (open(my $in, '<:raw', $raw_file)) {
        local $/;
        my $all = <$in> // '';
        close($in);
        for my $entry (split /\0/, $all) {
            my ($kind, $bytes) = (substr($entry, 0, 1), substr($entry, 1));
            if ($kind eq 'C') {
                $raw_cwd = $bytes;
            } elsif ($kind eq 'E' && $bytes =~ /^([^=]+)=(.*)\z/s) {
                push @raw_env, [$1, $2];
            }
        }
    } else {
        $raw_problem = "cannot read the session's environment ($raw_file): $!";
    }
    unlink($raw_file);
}
$pid = fork();
if (!defined $pid) {
    print STDERR "runboard: cannot start the command: fork failed: $!\n";
    exit 126;
}
if ($pid == 0) {
    setpgrp(0, 0);
    if ($pty_leader && open(my $tty, '+<', '/dev/tty')) {
        # The terminal's foreground group is the command's before it runs, set here too, as a shell sets it in both:
        # a command that read the terminal before the parent's call below (a loaded machine) was stopped by SIGTTIN.
        local $SIG{TTOU} = 'IGNORE';    # a group not yet in the foreground may take it only with SIGTTOU ignored
        ioctl($tty, TIOCSPGRP, pack('i', $$));
        close($tty);
    }
    # Every signal at its default, as `env --default-signal` would set them: a signal runboard was
    # started with ignored (SIGINT in a background job, SIGHUP under nohup, SIGPIPE) must not stay
    # ignored in the command.
    $SIG{$_} = 'DEFAULT' for keys %SIG;
    kill($child_signal, $$) if $child_signal;
    if ($raw_problem) {
        print STDERR "runboard: $raw_problem\n";
        exit 126;
    }
    $ENV{ $_->[0] } = $_->[1] for @raw_env;
    if (defined $raw_cwd && !chdir($raw_cwd)) {
        print STDERR "runboard: cannot enter the working folder $raw_cwd: $!\n";
        exit 126;
    }
    exec { $ARGV[0] } @ARGV;
    my $missing = $! == ENOENT;
    print STDERR "runboard: cannot run $ARGV[0]: " . exec_problem($ARGV[0], "$!") . "\n";
    # A plain exit is safe here: this script has no END blocks or objects, and STDOUT was never
    # written, so nothing of the parent's is flushed or run twice.
    exit($missing ? 127 : 126);
}
setpgrp($pid, $pid);    # as a shell does, in both: whichever runs first, the group exists before either goes on
if ($pty_leader && open(my $tty, '+<', '/dev/tty')) {
    ioctl($tty, TIOCSPGRP, pack('i', $pid));    # the terminal's keys (Ctrl-C, Ctrl-Z) reach the command's group (both, as above)
    close($tty);
}
# What runs below us is the command's from here on: our own files are readable by us only.
umask(077);
my $s = stat_of($pid);
$cmd_pid = $pid;
$cmd_start = $s ? $s->[3] : 0;
write_file("$dir/command", "$pid $cmd_start\n");
$request = "TERM $grace_ms killed" if $adopter_gone && !-e $record_file;    # it died between the check and the fork

# Until no child is left: serve kill requests, hold the deadline while the command runs, reap.
while (1) {
    if ($request) {
        serve_request();
        next;
    }
    if (!defined $raw && $deadline_ms && now_ms() >= $deadline_ms) {
        @timeout_report = end_session('TERM', $grace_ms, 'timeout', now_ms());
        write_status();
        next;
    }
    last if wait_for_child() < 0;
}
write_status();    # (reaped by someone else: no status, see write_status)
# A command that ran is recorded whatever happened to its client: the folder stays, with what bin/runboard wrote of
# it (early.spec), for the data dir's supervisor to record (UnrecordedLaunch.java). Without that, it goes.
forget_unadopted() if $adopter_gone && !-e $record_file && !-e "$dir/early.spec";
exit 255 unless defined $raw;
# 128+N for a signal death, as the JVM reports one; re-raising the signal could dump a core of perl.
exit($raw & 127 ? 128 + ($raw & 127) : $raw >> 8);

# Waits for a child to end, the deadline or a request; returns the pid reaped, 0, or -1 when no child is left.
# It blocks in waitpid while the deadline is far (an alarm, which counts whole seconds, wakes it a second or
# two early), then finishes the last stretch in short sleeps, to the millisecond.
sub wait_for_child {
    my $left = !defined $raw && $deadline_ms ? $deadline_ms - now_ms() : -1;
    my $look = $max_output && !$trim_off && !defined $raw ? $trim_wait_ms : -1;
    if ($usage_ms && !defined $raw) {
        my $due = $usage_next - now_ms();
        $due = 0 if $due < 0;
        $look = $due if $look < 0 || $due < $look;
    }
    if ($look >= 0 && ($left < 0 || $look <= $left)) {
        $chld_seen = 0;
        my $got = reap_nohang();
        return $got if $got != 0;
        nap($look);
        trim_output() if $max_output && !$trim_off;
        write_usage() if $usage_ms && !defined $raw && now_ms() >= $usage_next;
        return 0;
    }
    if ($left >= 0 && $left < 2000) {
        my $got = reap_nohang();
        select(undef, undef, undef, $left < 10 ? $left / 1000 : POLL_S) if $got == 0 && !$request;
        return $got;
    }
    my ($got, $st) = (0, 0);
    eval {
        local $SIG{ALRM} = sub { die "runboard-wrap: alarm\n" };
        $in_wait = 1;
        if (!$request) {
            alarm(int($left / 1000) - 1) if $left >= 0;
            # One statement: a signal is handled between statements, so a request or an alarm due just
            # as a child is reaped cannot lose its status (the outer variables hold it).
            ($got, $st) = (waitpid(-1, 0), $?);
        }
    };
    $in_wait = 0;
    alarm(0);
    reaped($got, $st) if $got > 0;
    return $got;
}

# Sleeps MS, or less: a child's end (CHLD) or a request wakes it.
sub nap {
    my ($ms) = @_;
    eval {
        $napping = $in_wait = 1;
        select(undef, undef, undef, $ms / 1000) unless $chld_seen || $request;
    };
    $napping = $in_wait = 0;
}

# Bounded output: looks at the capture, cuts its start when it has passed the bound (see the header), and
# sets when to look next: before it can grow by half a step at the rate it grew since the last look.
sub trim_output {
    my @st = stat($capture) or return;    # gone (moved aside): nothing to trim
    my $now = now_ms();
    my $total = $st[7] + $dropped;
    my ($grew, $took) = ($total - $trim_last_size, $now - $trim_last_ms);
    ($trim_last_size, $trim_last_ms) = ($total, $now);
    my $block = $st[11] || 4096;
    $trim_step ||= int($max_output / 10 / $block) * $block || $block;
    my $wait = $grew > 0 && $took > 0 ? int($trim_step / 2 * $took / $grew) : $trim_wait_ms * 2;
    $trim_wait_ms = $wait < TRIM_MIN_MS ? TRIM_MIN_MS : $wait > TRIM_MAX_MS ? TRIM_MAX_MS : $wait;
    return if $st[7] <= $max_output / 2;
    if (!$trim_fh) {
        open($trim_fh, '+<', $capture) or return trim_unavailable("cannot open the capture to trim it: $!");
    }
    # A cut first writes back everything after it, with the command's writes held meanwhile: written back
    # from half the bound on, as it comes (SYNC_FILE_RANGE_WRITE starts it without waiting), a cut finds
    # little left to write and holds the command for less.
    syscall($sync_range, fileno($trim_fh), 0, 0, SYNC_FILE_RANGE_WRITE) if $sync_range;
    return if $st[7] <= $max_output;
    my @open = stat($trim_fh);
    return trim_unavailable('the capture was replaced by another file') unless @open && $open[0] == $st[0] && $open[1] == $st[1];
    return unless cut_length($st[7], $block);    # a bound under a block and a step: nothing whole to cut yet
    return trim_unavailable('runboard does not know the fallocate call on this CPU') unless $fallocate;
    %proc_children = ();
    my $writer = non_appending_writer($st[0], $st[1]);
    return trim_unavailable("$writer writes the capture at its own offset (without O_APPEND): cutting its start would"
        . ' leave NUL bytes where it writes next') if defined $writer;
    # The cut holds the command's writes while it writes back what it keeps and drops every cached page after it:
    # done here first, where the command goes on writing (written back and waited for, then dropped), the cut
    # finds little of either (1 GiB kept to 50M: 3.9-4.2 s against 4.7-4.8 s, the wrapper alone; BENCHMARKS §18).
    syscall($sync_range, fileno($trim_fh), 0, 0, SYNC_FILE_RANGE_WAIT_ALL) if $sync_range;
    syscall($fadvise, fileno($trim_fh), 0, 0, POSIX_FADV_DONTNEED) if $fadvise;
    # How much to cut is counted from the size after that wait, not before it: a command writing faster than the
    # disk wrote on meanwhile, and a cut counted from the older size left the capture over the bound by all of it
    # (peaks of 65-168 MiB for 50M sampled every 100 ms, 70-116 MiB counted after; BENCHMARKS §18).
    my $len = cut_length(-s $trim_fh, $block) or return;
    write_file($trim_file, "pending $dropped $kept_start $len\n");    # readers wait until the cut is done
    if (syscall($fallocate, fileno($trim_fh), FALLOC_FL_COLLAPSE_RANGE, 0, $len) != 0) {
        my ($errno, $text) = ($! + 0, "$!");
        return trim_unavailable($errno == EOPNOTSUPP
            ? 'the file system of the capture cannot cut the start of a file in place (collapse range); tmpfs, btrfs and NFS cannot'
            : "cutting the capture's start failed: $text");
    }
    $dropped += $len;
    my $head = '';
    sysseek($trim_fh, 0, 0);
    sysread($trim_fh, $head, FIRST_LINE_BYTES);
    my $newline = index($head, "\n");
    $kept_start = $newline >= 0 ? $dropped + $newline + 1 : $dropped;
    write_file($trim_file, "trimming $dropped $kept_start\n");
}

# How much of a capture of SIZE bytes to cut, in whole blocks, so that the bound less a step is kept: 0 when
# that is nothing or all of it.
sub cut_length {
    my ($size, $block) = @_;
    my $len = $size - $max_output + $trim_step;
    $len -= $len % $block;
    return $len > 0 && $len < $size ? $len : 0;
}

# Trimming stops for good: said in the output and in output-trim; the rest of the output is kept whole.
sub trim_unavailable {
    my ($why) = @_;
    $trim_off = 1;
    write_file($trim_file, "unavailable $dropped $kept_start $why\n");
    print STDERR "runboard: the output cannot be trimmed to max_output ($why): the rest of it is kept whole\n";
    return;
}

# A process of the session (this wrapper and what descends from it) holding the capture (DEV, INO) open for
# writing without O_APPEND, described; undef when every writer appends. This wrapper's own cutting handle is no writer.
sub non_appending_writer {
    my ($dev, $ino) = @_;
    my @todo = ($$);
    while (defined(my $p = shift @todo)) {
        push @todo, children_of($p);
        opendir(my $fds, "/proc/$p/fd") or next;
        for my $fd (grep { /^\d+$/ } readdir($fds)) {
            next if $p == $$ && $fd == fileno($trim_fh);
            my @t = stat("/proc/$p/fd/$fd") or next;
            next unless $t[0] == $dev && $t[1] == $ino;
            my $flags = fd_flags($p, $fd);
            next if !defined $flags || ($flags & 3) == 0 || $flags & O_APPEND;    # a reader, or an appender
            closedir($fds);
            my $command = command_of($p) // 'gone';
            return "process $p (" . (length($command) > 60 ? substr($command, 0, 60) . '...' : $command) . ")";
        }
        closedir($fds);
    }
    return undef;
}

# The children of a process: from its threads' children files (one read each, where the kernel has them), else
# from a pass over /proc (kept for the rest of this look: %proc_children is emptied by trim_output).
sub children_of {
    my ($p) = @_;
    my @kids;
    if (opendir(my $tasks, "/proc/$p/task")) {
        my $found = 0;
        for my $t (grep { /^\d+$/ } readdir($tasks)) {
            open(my $fh, '<', "/proc/$p/task/$t/children") or next;
            $found = 1;
            push @kids, split(' ', <$fh> // '');
            close($fh);
        }
        closedir($tasks);
        return @kids if $found;
    }
    if (!%proc_children && opendir(my $dh, '/proc')) {
        for my $q (grep { /^\d+$/ } readdir($dh)) {
            my $s = stat_of($q) or next;
            push @{ $proc_children{ $s->[1] } }, $q;
        }
        closedir($dh);
    }
    return @{ $proc_children{$p} || [] };
}

# The open flags of a process's descriptor (/proc/PID/fdinfo/FD, octal), or undef.
sub fd_flags {
    my ($p, $fd) = @_;
    open(my $fh, '<', "/proc/$p/fdinfo/$fd") or return undef;
    while (my $line = <$fh>) {
        if ($line =~ /^flags:\s*([0-7]+)/) {
            close($fh);
            return oct($1);
        }
    }
    close($fh);
    return undef;
}

# Reaps every child that has ended; returns 0 while a child is left, -1 when none is.
sub reap_nohang {
    while (1) {
        my ($got, $st) = (waitpid(-1, WNOHANG), $?);
        return $got if $got <= 0;
        reaped($got, $st);
    }
}

sub reaped {
    my ($got, $st) = @_;
    return unless $got == $pid && !defined $raw;
    ($raw, $ended_at) = ($st, now_ms());
    write_status() unless $killing;    # a kill in flight writes it once its report is whole
}

# The command's status, once: the line, the deadline kill's report if there was one. It tells the
# parent, which may be waiting for this process rather than for the status (processes left behind
# keep the wrapper here).
sub write_status {
    return if $status_written || !defined $raw || $raw == -1;
    # A last cut before the status: the session's end moves the capture (it becomes the artifact), and what is
    # kept must be within the bound (what the command wrote since the last look may have passed it).
    trim_output() if $max_output && !$trim_off;
    $status_written = 1;
    my $line = ($kill_kind // 'own') . ($raw & 127 ? ' signal ' . ($raw & 127) : ' exit ' . ($raw >> 8));
    # runboard set the temp file's space aside when the session started: overwritten in place, it needs
    # no free space, so the status is recorded even when the command filled the disk.
    # The deadline's report goes below a timeout only: a command that ended first was not ended by it.
    my $report = ($kill_kind // '') eq 'timeout' ? join('', map { "$_\n" } @timeout_report) : '';
    write_file($status_file, "$line at $ended_at\n" . $report, 1);
    # Only to bin/runboard's exec client (the adopter), which waits for this process: others watch the status.
    kill('CHLD', $adopter) if defined $adopter && getppid() == $adopter && reap_nohang() == 0;
}

# Serves the kill asked for: by TERM, INT or HUP to us (the request's words), or by kill-request and USR1.
sub serve_request {
    my $asked = $request;
    $request = 0;
    my ($signal, $grace, $why, $requested_at);
    if ($asked eq '1') {
        serve_signal_request();
        my $line = read_line("$dir/kill-request");
        return unless defined $line && $line ne $last_request;    # none, or served already (USR1 sent twice)
        $last_request = $line;
        ($signal, $grace, $why, $requested_at) = split(' ', $line);
    } else {
        ($signal, $grace, $why) = split(' ', $asked);
    }
    return unless defined $grace && $signal =~ /^[A-Z0-9]+$/ && $grace =~ /^\d+$/;
    my @report = end_session($signal, $grace, $why eq 'timeout' ? 'timeout' : 'killed', $requested_at || now_ms());
    write_file("$dir/kill-report", join('', map { "$_\n" } @report));
    write_status();
}

# A signal-request (pause, resume): sent to the command's group while the command runs; signal-served, the
# request's line and what was done, is the asker's answer, written before the request goes.
sub serve_signal_request {
    my $line = read_line("$dir/signal-request");
    return unless defined $line;
    my ($signal) = split(' ', $line);
    my $sent = defined $signal && $signal =~ /^[A-Z0-9]+$/ && !defined $raw && kill($signal, -$cmd_pid) ? 'sent' : 'gone';
    write_file("$dir/signal-served", "$line $sent\n");
    unlink("$dir/signal-request");
}

# The usage file (see the header): the session's processes as a kill would find them, and this wrapper, their root.
sub write_usage {
    $usage_next = now_ms() + $usage_ms;
    my ($ours) = find_session();
    my $text = "leader $$\nclock_ticks 100\npage_size " . page_size() . "\n";    # USER_HZ: 100 on every Linux ABI
    if (open(my $fh, '<', '/proc/uptime')) {
        my $u = <$fh>;
        close($fh);
        $text .= "uptime " . (split(' ', $u // '0'))[0] . "\n";
    }
    my %tree = (%$ours, $$ => 1);
    for my $p (sort { $a <=> $b } keys %tree) {
        my $f = stat_of($p, 1) or next;
        my $command = command_of($p) // '';
        $command = "[$f->[8]]" unless length($command);
        $text .= join(' ', 'p', 's', $p, @$f[1, 2, 0, 3, 4, 5, 6], $command) . "\n";
    }
    write_file("$dir/usage", $text);
}

# The memory page size, from the auxiliary vector (AT_PAGESZ, 6): POSIX's sysconf would cost 2 MB per wrapper.
my $page_size;
sub page_size {
    return $page_size if $page_size;
    $page_size = 4096;
    if (open(my $fh, '<:raw', '/proc/self/auxv')) {
        local $/;
        my @av = unpack('Q*', <$fh> // '');
        close($fh);
        for (my $i = 0; $i + 1 < @av; $i += 2) {
            $page_size = $av[$i + 1] if $av[$i] == 6 && $av[$i + 1] > 0;
        }
    }
    return $page_size;
}

# The one kill. Lists the session's processes before signalling (orphans re-parent), sends SIGNAL once
# (a repeated TERM re-runs handlers that fork) to the command's group and to the session's processes
# outside it, waits up to the grace, then KILLs every process of the session until a full pass over
# /proc finds none (or SWEEP_MS has passed: the rest are survivors). Never a process of another user,
# never this process or its ancestors. A command that had ended before the first signal keeps its
# own status; one that ends after it is this kill's (KIND). Returns the report's lines.
sub end_session {
    my ($signal, $grace, $kind, $requested_at) = @_;
    $killing = 1;
    # A stack command's shutdown step (its folder's shutdown file) replaces the TERM of every kill: its
    # command runs instead, or its signal is sent instead. The grace and the KILL sweep follow as always.
    my ($step_command, $step_signal) = $signal eq 'TERM' ? shutdown_step() : ();
    $signal = $step_signal if defined $step_signal && !defined $step_command;
    my @report = ("requested_at $requested_at", "signal $signal", "grace_ms $grace");
    %spared = map { $_ => 1 } ancestry();
    my ($ours, $strangers) = find_session();
    my %not_ours = %$strangers;
    %seen = (%seen, %$ours);
    my @term = map { "term $_ $ours->{$_} " . command_of($_) } sort { $a <=> $b } keys %$ours;
    # Own exit wins: a command that ended before the first signal keeps its status, one that ends after it
    # is this kill's. Stopped first, it cannot end on its own between the check and the signal (a check
    # alone lost that race when the machine was busy: the wrapper was preempted between the two).
    reap_nohang() if $holder;
    my $running = $holder ? !defined $raw && stop_command() : alive($cmd_pid, $cmd_start);
    $kill_kind //= $kind if $holder && $running;
    push @report, 'own_exit' if $holder && !$running;
    push @report, 'term_at ' . now_ms(), @term;
    if (defined $step_command) {
        send_once('CONT', $ours, $running);    # stopped for the check above: it must be able to answer its shutdown
        my $started = run_shutdown($step_command);
        $notes{ $started ? "the shutdown command ran in place of TERM: $step_command"
                : "the shutdown command could not start ($!): $step_command" } = 1;
    } else {
        send_once($signal, $ours, $running);
        send_once('CONT', $ours, $running) unless $signal eq 'KILL' || $signal eq 'STOP' || $signal eq 'CONT';
    }

    my %known = %$ours;
    my $grace_end = now_ms() + $grace;
    $grace_end = 0 if $signal eq 'KILL';
    while (1) {
        reap_nohang() if $holder;
        delete @known{ grep { !alive($_, $known{$_}) } keys %known };
        if (!%known) {
            my ($more, $others) = find_session();    # everything known is gone; catch what was forked meanwhile
            %not_ours = (%not_ours, %$others);
            %known = %$more;
            %seen = (%seen, %$more);
            last unless %known;
        }
        last if now_ms() >= $grace_end || kill_now();
        select(undef, undef, undef, POLL_S);
    }

    my $sweep_end = now_ms() + SWEEP_MS;
    my %killed;
    my @left;
    while (1) {
        my ($found, $others) = find_session();
        %not_ours = (%not_ours, %$others);
        %seen = (%seen, %$found);
        @left = sort { $a <=> $b } keys %$found;
        last unless @left;
        if (now_ms() >= $sweep_end) {
            push @report, map { "survivor $_ $found->{$_} " . command_of($_) } @left;
            last;
        }
        for my $p (grep { !$killed{$_}++ } @left) {
            my $s = stat_of($p);
            my $what = "$p $found->{$p} " . command_of($p);
            push @report, "kill $what";
            push @report, "escaped $what" if $s && $s->[2] != $cmd_pid;
        }
        kill('KILL', @left);
        select(undef, undef, undef, POLL_S);
        reap_nohang() if $holder;
    }
    # Another user's processes are listed while they live: one that ended meanwhile is no survivor.
    for my $p (sort { $a <=> $b } keys %not_ours) {
        my $command = alive($p, $not_ours{$p}) ? command_of($p) : undef;
        push @report, "not_ours $p $not_ours{$p} $command" if defined $command;
    }
    if ($holder && $running && !defined $raw) {
        # KILL has gone to the command: its status is a moment away.
        my $until = now_ms() + 2000;
        select(undef, undef, undef, POLL_S) while !defined $raw && reap_nohang() >= 0 && now_ms() < $until;
    }
    push @report, map { "note $_" } sort keys %notes;
    push @report, 'done_at ' . now_ms();
    $killing = 0;
    return @report;
}

# The shutdown step of the session's folder: (command or undef, signal name or undef); nothing when it has none.
# The file's first line is the signal ("-": none), its second the command (empty: none).
sub shutdown_step {
    open(my $fh, '<', "$dir/shutdown") or return ();
    my ($signal, $command) = (scalar(<$fh>), scalar(<$fh>));
    close($fh);
    chomp($signal) if defined $signal;
    chomp($command) if defined $command;
    $signal = undef unless defined $signal && $signal =~ /^[A-Z][A-Z0-9]*$/;
    $command = undef unless defined $command && $command =~ /\S/;
    return ($command, $signal);
}

# Starts the shutdown command (`/bin/sh -c`, in this folder and environment, writing to the session's capture);
# returns its pid, or 0 when it could not start. Run by the wrapper, it is a process of the session: the grace
# waits for it too, and the KILL sweep ends it if it outlives the grace.
sub run_shutdown {
    my ($command) = @_;
    my $child = fork();
    return 0 unless defined $child;
    if ($child == 0) {
        $SIG{$_} = 'DEFAULT' for keys %SIG;
        # Never the kill-mode report on stdout: its output goes where the command's own goes.
        open(STDOUT, '>>', "$dir/capture.log") or open(STDOUT, '>', '/dev/null');
        open(STDERR, '>&', \*STDOUT);
        exec('/bin/sh', '-c', $command);
        exit 127;
    }
    return $child;
}

# Stops the command (our child) and waits until it has stopped or ended: true when it is stopped (still
# running, as far as its status goes), false when it ended first (its status is then recorded). The kill's
# signals that follow continue it (CONT), as they continue a paused session.
sub stop_command {
    kill('STOP', $pid);
    my $until = now_ms() + 2000;
    while (1) {
        # $? reads 0 for a stopped child: the raw status says stopped (WIFSTOPPED) or ended.
        my ($got, $st, $native) = (waitpid($pid, WNOHANG | WUNTRACED), $?, ${^CHILD_ERROR_NATIVE});
        if ($got == $pid) {
            return 1 if ($native & 0xff) == 0x7f;
            reaped($got, $st);
            return 0;
        }
        return !defined $raw if $got < 0;
        my $now = stat_of($pid);
        return 1 if now_ms() >= $until || $now && ($now->[0] eq 'T' || $now->[0] eq 't');    # (a stop reported before)
        select(undef, undef, undef, 0.001);
    }
}

# The signal, once: to the command's group while its pid is surely still the command's (our unreaped
# child, or alive with its start time), plus each process of ours outside the group; to each one by one
# when root, so a group signal cannot reach another user's process in it.
sub send_once {
    my ($signal, $ours, $running) = @_;
    my @each = sort { $ours->{$a} <=> $ours->{$b} } keys %$ours;    # parents (older) first
    if ($running && $< != 0 && $cmd_pid > 1) {
        kill($signal, -$cmd_pid);
        @each = grep { my $s = stat_of($_); !$s || $s->[2] != $cmd_pid } @each;
    }
    kill($signal, @each) if @each;
}

# Whether a request arrived during the grace asking for KILL now ("kill now" during a kill's grace).
sub kill_now {
    return 0 unless $request;
    my $from_file = $request eq '1';
    my $line = $from_file ? read_line("$dir/kill-request") : $request;
    return 0 unless defined $line && $line =~ /^KILL /;    # another request waits its turn (served after this kill)
    $last_request = $line if $from_file;
    $request = 0;
    return 1;
}

# The session's live processes, two maps of pid => start ticks: ours, and those of another user. A
# process is the session's when it descends from the holder (this wrapper: nothing escapes it), is in
# the command's group, carries the session's tag, was seen as the session's since the kill began
# (same start time), or descends from one of those. Never one of %spared.
sub find_session {
    my %table;
    opendir(my $dh, '/proc') or return ({}, {});
    for my $p (grep { /^\d+$/ } readdir($dh)) {
        my $s = stat_of($p);
        $table{$p} = $s if $s;
    }
    closedir($dh);
    my %children;
    push @{ $children{ $table{$_}[1] } }, $_ for keys %table;
    # The command's group is the session's while the command is there (same start time) or its pid names
    # no process: a group outlives its leader while members remain, and its number cannot be handed out
    # again until they have all gone. A pid that names another process leads another's group.
    my $leader = $table{$cmd_pid};
    my $group_ours = !$leader || $leader->[3] == $cmd_start;
    $notes{"process group $cmd_pid was left alone: pid $cmd_pid now names another process, not the session's command"} = 1
        unless $group_ours;
    my %member;
    for my $p (keys %table) {
        my $s = $table{$p};
        next if $spared{$p};
        if ($group_ours && $s->[2] == $cmd_pid && $s->[3] >= $cmd_start
                || defined $seen{$p} && $seen{$p} == $s->[3]
                || defined $tag && $s->[3] >= $cmd_start && tagged($p)) {
            $member{$p} = 1;
        }
    }
    my @todo = ($holder ? ($holder) : (), keys %member);
    while (defined(my $p = shift @todo)) {
        push @todo, grep { !$member{$_}++ } @{ $children{$p} || [] };
    }
    my (%ours, %others);
    for my $p (keys %member) {
        my $s = $table{$p};
        next if !$s || $spared{$p} || $s->[0] eq 'Z' || $s->[0] eq 'X';
        my $uid = (stat("/proc/$p"))[4];
        next unless defined $uid;
        if ($uid == $<) {
            $ours{$p} = $s->[3];
        } else {
            $others{$p} = $s->[3];
        }
    }
    return (\%ours, \%others);
}

# This process and its ancestors, and init: never signalled, whatever their environment says.
sub ancestry {
    my @out = (1);
    for (my $p = $$; $p > 1; ) {
        push @out, $p;
        my $s = stat_of($p) or last;
        $p = $s->[1];
    }
    return @out;
}

# Kill mode: ask the wrapper, or do its kill without it (see the header). With the one argument '-', a server
# of kills (serve_kills).
sub kill_mode {
    return serve_kills() if @_ == 1 && $_[0] eq '-';
    my ($file, $wrapper, $wrapper_start, $signal, $grace, $why, $session_tag, @known) = @_;
    die "runboard-wrap: usage: runboard-wrap.pl --kill STATUS_FILE WRAPPER_PID WRAPPER_START SIGNAL GRACE_MS WHY TAG [PID:START...]\n"
        unless defined $session_tag && $wrapper =~ /^\d+$/ && $wrapper_start =~ /^\d+$/ && $grace =~ /^\d+$/
        && $signal =~ /^[A-Z0-9]+$/ && $why =~ /^\w+$/;
    umask(077);
    $status_file = $file;
    $dir = $status_file =~ m{^(.*)/[^/]*$} ? $1 : '.';
    $tag = $session_tag eq '' ? undef : $session_tag;
    my $requested_at = now_ms();
    my $command = read_line("$dir/command");
    ($cmd_pid, $cmd_start) = defined $command && $command =~ /^(\d+) (\d+)$/ ? ($1, $2) : ($wrapper, $wrapper_start);
    for (@known) {
        $seen{$1} = $2 if /^(\d+):(\d+)$/;
    }
    unlink("$dir/kill-report");
    write_file("$dir/kill-request", "$signal $grace $why $requested_at\n");    # on disk before any signal
    if (alive($wrapper, $wrapper_start) && kill('USR1', $wrapper)) {
        my $until = now_ms() + $grace + SWEEP_MS + ANSWER_SLACK_MS;
        while (now_ms() < $until && alive($wrapper, $wrapper_start)) {
            if (-e "$dir/kill-report") {
                print_file("$dir/kill-report");
                return;
            }
            select(undef, undef, undef, POLL_S);
        }
        return print_file("$dir/kill-report") if -e "$dir/kill-report";
    }
    # The wrapper is gone (or stuck): the same kill, from what the session left findable. A status it wrote
    # says the command had ended before this kill: it keeps that status (what is found is only swept).
    my $ended_before = -e $status_file;
    my @report = end_session($signal, $grace, $why, $requested_at);
    splice(@report, 3, 0, 'own_exit') if $ended_before;
    splice(@report, -1, 0, 'note the session\'s wrapper had ended: runboard ended its processes without it');
    print map { "$_\n" } @report;
}

# Kill mode as a server (--kill -), which runboard's supervisor keeps beside it for its local kills: each line
# on stdin is one kill, an answer file then kill mode's arguments, every word 'x' and its hex (an empty one is 'x'). A fork of this process does that
# kill, exactly as `--kill ARGS` would, its report (stdout) going to the answer file (temp file + rename) and any
# error (stderr) to ANSWER.err, then writes the line's first word back on stdout: one line, whole (shorter than PIPE_BUF). A fork
# costs a fraction of a millisecond where a `perl runboard-wrap.pl --kill` costs a perl start and this script's
# compile, about 10 ms of CPU: with 100 kills at once on two cores, the most of what the kills cost beyond
# themselves (docs/BENCHMARKS.md §17). It exits at the end of its input; a fork still killing finishes its kill.
sub serve_kills {
    umask(077);
    open(my $replies, '>&', \*STDOUT) or die "runboard-wrap: --kill -: stdout: $!\n";
    my $old = select($replies);
    $| = 1;
    select($old);
    local $SIG{CHLD} = 'IGNORE';    # the forks reap themselves
    while (defined(my $line = <STDIN>)) {
        my ($answer, @args) = map { pack('H*', substr($_, 1)) } split(' ', $line);
        next unless defined $answer && length $answer;
        my $child = fork();
        if (!defined $child) {
            write_file($answer, "note runboard-wrap: --kill -: fork failed: $!\n");
            syswrite($replies, unpack('H*', $answer) . "\n");
            next;
        }
        next if $child;
        $SIG{CHLD} = 'DEFAULT';
        close(STDIN);
        open(STDIN, '<', '/dev/null');
        if (open(STDOUT, '>', "$answer.tmp") && open(STDERR, '>', "$answer.err")) {
            eval { kill_mode(@args); 1 } or print STDERR $@;
            close(STDOUT);
            close(STDERR);
            rename("$answer.tmp", $answer);
        }
        syswrite($replies, unpack('H*', $answer) . "\n");
        exit 0;
    }
}

sub print_file {
    my ($path) = @_;
    open(my $fh, '<', $path) or return;
    local $/;
    print <$fh> // '';
    close($fh);
}

# Nobody adopted this session (its adopter died before writing the record): without output its folder
# (made by bin/runboard) goes; with output, the lock goes, so that runboard lists the folder as output
# without a record, saying where it is, instead of as a session still being made.
sub forget_unadopted {
    unlink("$dir/lock", "$dir/early.spec");    # nothing ran: nothing to record
    if (-z "$dir/capture.log") {
        unlink("$dir/capture.log", $status_file, "$status_file.tmp", "$dir/command", "$dir/kill-request",
            "$dir/kill-report", "$dir/session.json.reserved");
        rmdir($dir);
    }
}

# Writes a file whole or not at all: a temp file, then a rename. IN_PLACE: the temp file's space was set
# aside when the session started (overwritten in place, it needs no free space on a full disk).
sub write_file {
    my ($path, $text, $in_place) = @_;
    my $tmp = "$path.tmp";
    my $fh;
    return 0 unless $in_place && open($fh, '+<', $tmp) || open($fh, '>', $tmp);
    binmode($fh);
    my $ok = (syswrite($fh, $text) // -1) == length($text) && truncate($fh, length($text));
    $ok = close($fh) && $ok;
    return $ok ? rename($tmp, $path) : (unlink($tmp) && 0);
}

sub read_line {
    my ($path) = @_;
    open(my $fh, '<', $path) or return undef;
    my $line = <$fh>;
    close($fh);
    chomp($line) if defined $line;
    return $line;
}

# [state, ppid, pgid, start time] from /proc/PID/stat, or undef when it is gone; with FULL (the usage file's
# frame, once a second) also [.., utime+stime, cutime+cstime, rss pages, -, comm]. The command name may hold
# spaces, parentheses and newlines, so the whole file is read and the fields taken after its last ')'.
sub stat_of {
    my ($p, $full) = @_;
    open(my $fh, '<', "/proc/$p/stat") or return undef;
    local $/;
    my $line = <$fh>;
    close($fh);
    my $end = defined $line ? rindex($line, ')') : -1;
    return undef if $end < 0;
    my @f = split(' ', substr($line, $end + 1));
    return [ $f[0], $f[1], $f[2], $f[19] ] unless $full;
    my $open = index($line, '(');
    my $comm = substr($line, $open + 1, $end - $open - 1);
    $comm =~ tr/ \n/__/;
    return [ $f[0], $f[1], $f[2], $f[19], $f[11] + $f[12], $f[13] + $f[14], $f[21] < 0 ? 0 : $f[21], 0, $comm ];
}

# The process's command line, arguments joined by spaces; its name in brackets when it has cleared
# its arguments; undef once it is gone.
sub command_of {
    my ($p) = @_;
    open(my $fh, '<', "/proc/$p/cmdline") or return undef;
    local $/;
    my $cmd = <$fh> // '';
    close($fh);
    $cmd =~ s/\0+$//;
    $cmd =~ tr/\0\n/  /;
    $cmd =~ s/\s+$//;
    if ($cmd eq '' && open(my $comm, '<', "/proc/$p/comm")) {
        my $name = <$comm> // '';
        close($comm);
        $name =~ tr/\0\n/  /;
        $name =~ s/\s+$//;
        $cmd = "[$name]";
    }
    return $cmd;
}

# Alive and still the process we listed (same start time): a zombie has ended, and a reused pid is another.
sub alive {
    my ($p, $start) = @_;
    return 0 unless defined $p && $p > 1;
    my $s = stat_of($p);
    return $s && $s->[0] ne 'Z' && $s->[0] ne 'X' && $s->[3] == $start;
}

# Whether the process's environment holds our exact tag entry.
sub tagged {
    my ($p) = @_;
    open(my $fh, '<', "/proc/$p/environ") or return 0;
    local $/;
    my $env = <$fh>;
    close($fh);
    return defined $env && index("\0$env", "\0$tag\0") >= 0;
}

# clock_gettime(2)'s syscall number for this CPU (its ELF machine number, from elf_machine: x86-64,
# AArch64, 64-bit RISC-V), or 0 when unknown or when its answer disagrees with time(): now_ms then uses Time::HiRes.
sub clock_syscall {
    my ($machine) = @_;
    my %numbers = (62 => 228, 183 => 113, 243 => 113);
    my $number = $numbers{$machine} || 0;
    return 0 unless $number;
    my $ms = clock_ms($number);
    return defined $ms && abs($ms / 1000 - time()) < 2 ? $number : 0;
}

# This CPU's ELF machine number, read from perl's own header (62 x86-64, 183 AArch64, 243 RISC-V);
# 0 unless a 64-bit little-endian one, the only layout the syscall numbers here are for.
sub elf_machine {
    my $elf = '';
    if (open(my $exe, '<', '/proc/self/exe')) {
        read($exe, $elf, 20);
        close($exe);
    }
    return 0 unless length($elf) == 20;
    my ($class, $order, $machine) = unpack('x4 C C x12 v', $elf);
    return $class == 2 && $order == 1 ? $machine : 0;
}

sub clock_ms {
    my ($number) = @_;
    my $ts = "\0" x 16;    # struct timespec: two 64-bit little-endian longs
    return undef unless syscall($number, 0, $ts) == 0;    # 0: CLOCK_REALTIME
    my ($s_lo, $s_hi, $ns_lo, $ns_hi) = unpack('V4', $ts);
    return int(($s_lo + $s_hi * 4294967296) * 1000 + $ns_lo / 1_000_000);
}

sub now_ms {
    if ($clock) {
        my $ms = clock_ms($clock);
        return $ms if defined $ms;
    }
    return eval { require Time::HiRes; int(Time::HiRes::time() * 1000) } // time() * 1000;
}

# Why exec failed, in words that point at the cause: errno's text alone says "No such file or
# directory" for a script whose #! interpreter is missing and "Permission denied" for a folder, both
# of which send a person looking in the wrong place. Only for a path: a bare name was searched for.
sub exec_problem {
    my ($program, $error) = @_;
    return $error unless $program =~ m{/};
    return 'it is a folder, not a program' if -d $program;
    return 'it is not executable (chmod +x it, or run it with its interpreter)' if -f _ && !-x _;
    if (-f _ && open(my $fh, '<', $program)) {
        my $first = <$fh>;
        close($fh);
        if (defined $first && $first =~ /^#!\s*(\S+)/ && !-e $1) {
            return "its interpreter $1 (named on its #! line) was not found";
        }
    }
    return $error;
}
