# runboard's helper on a remote host: starts sessions under runboard-wrap.pl, reports on all of a
# host's sessions in one call, and hands a session's kill to its wrapper. runboard copies it, with the
# wrapper, into a 0700 folder of its own on the remote (one per client) and runs it over its ssh
# connection; it needs nothing but perl.
#
#   perl runboard-remote.pl DIR launch     request on stdin (NUL-separated, see launch())
#   perl runboard-remote.pl DIR poll MAX [usage]
#                                          stdin: one "ID OFFSET PID START_TICKS [TAG]" line per session;
#                                          with "usage", a last frame samples each session's tree (usage())
#   perl runboard-remote.pl DIR stdin ID    stdin: bytes for the session's command (through its fifo, `in`)
#   perl runboard-remote.pl DIR stdin_close ID   end of input: the fifo's keeper lets go, the command reads EOF
#   perl runboard-remote.pl DIR sysconf    clock ticks per second and the page size, for the usage frames
#   perl runboard-remote.pl DIR kill ID PID START_TICKS SIGNAL GRACE_MS WHY TAG   (the wrapper's kill: its report)
#   perl runboard-remote.pl DIR signal ID PID START_TICKS SIGNAL
#   perl runboard-remote.pl DIR forget ID...
#   perl runboard-remote.pl DIR room       whether a session's files fit (asked before each start)
#   perl runboard-remote.pl DIR follow ID OFFSET   kept open: the session's output from OFFSET on, raw, as it is
#                                          written; ends (exit 0) once the command has ended and every byte is sent
#   perl runboard-remote.pl DIR read ID OFFSET LENGTH   one byte range of a session's output
#   perl runboard-remote.pl DIR size ID    a session's output size in bytes
#   perl runboard-remote.pl DIR put ID NAME     stdin: a file's bytes, written whole into DIR/s/ID (made if missing)
#   perl runboard-remote.pl DIR drop ID NAME... removes those files of the session
#   perl runboard-remote.pl DIR look NAME... [-- ARGV...]
#                                          stdin: one session ID a line; runs ARGV (if any) and prints its exit and
#                                          output, then each NAME's facts in each session's folder (look())
#
# A session lives in DIR/s/ID: `out` (the command's output, untouched), `status` (the wrapper's
# exit-status file), `in` (a fifo: the command's stdin, see stdin_fifo()). Errors are one line
# "error KIND: message" on stdout, exit 3.
use strict;

sub CHUNK () { 1 << 20 }

my ($dir, $cmd, @args) = @ARGV;
# What the helper makes (version, out, pid, status.tmp, in.keeper...) is its user's alone, whatever umask sshd
# gave it; the command it starts gets the umask the helper was started with.
my $caller_umask = umask(077);
binmode(STDOUT);
binmode(STDIN);
die "runboard-remote: usage: runboard-remote.pl DIR launch|poll|kill|signal|forget ...\n" unless defined $cmd;
if ($cmd eq 'launch') { launch() }
elsif ($cmd eq 'poll') { poll(@args) }
elsif ($cmd eq 'kill') { kill_session(@args) }
elsif ($cmd eq 'signal') { signal_session(@args) }
elsif ($cmd eq 'forget') { forget(@args) }
elsif ($cmd eq 'room') { room() }
elsif ($cmd eq 'sysconf') { sysconf() }
elsif ($cmd eq 'stdin') { stdin_write(@args) }
elsif ($cmd eq 'stdin_close') { stdin_close(@args) }
elsif ($cmd eq 'follow') { follow(@args) }
elsif ($cmd eq 'read') { read_range(@args) }
elsif ($cmd eq 'size') { size_of(@args) }
elsif ($cmd eq 'put') { put_file(@args) }
elsif ($cmd eq 'drop') { drop_files(@args) }
elsif ($cmd eq 'look') { look(@args) }
else { fail('usage', "unknown command $cmd") }
exit 0;

sub fail {
    my ($kind, $message) = @_;
    print "error $kind: $message\n";
    exit 3;
}

# Request: ID, TIMEOUT_MS (0: none; the deadline is counted on this host's clock), GRACE_MS, CWD, NICE, TAG (NAME=VALUE), the number of variables, the
# variables (NAME=VALUE), then the command's argv; every field ends with a NUL.
sub launch {
    local $/;
    my @f = split(/\0/, <STDIN>, -1);
    pop @f if @f && $f[-1] eq '';
    my ($id, $timeout, $grace, $cwd, $nice, $tag, $nenv) = splice(@f, 0, 7);
    my $deadline = $timeout ? now_ms() + $timeout : 0;
    my @env = splice(@f, 0, $nenv // 0);
    my @argv = @f;
    fail('usage', 'incomplete launch request') unless defined $nenv && @argv && $id =~ /^[\w.-]+$/;
    my $sdir = "$dir/s/$id";
    mkdir("$dir/s", 0700);
    mkdir($sdir, 0700) or fail('disk', "cannot create $sdir: $!");
    chdir($cwd) or cleanup_fail($sdir, 'cwd', "cwd $cwd: $!");
    # Room for the exit status is set aside now, as locally (the wrapper overwrites it in place), and
    # a disk with less than 64 KiB free is refused before anything runs.
    for my $probe (["status.tmp", 4096], ["probe", 65536]) {
        my ($name, $size) = @$probe;
        my $ok = open(my $fh, '>', "$sdir/$name");
        $ok = $ok && (syswrite($fh, "\0" x $size) // -1) == $size;
        $ok = close($fh) && $ok if $fh;
        cleanup_fail($sdir, 'disk', "no room in $dir: " . ($! || 'short write')) unless $ok;
    }
    unlink("$sdir/probe");
    open(my $out, '>>', "$sdir/out") or cleanup_fail($sdir, 'disk', "cannot create $sdir/out: $!");
    my $in = stdin_fifo($sdir);
    my @command = ('perl', "$dir/runboard-wrap.pl", "$sdir/status", $deadline, $grace);
    push @command, 'nice', '-n', $nice if $nice;
    push @command, @argv;
    my $pid = fork();
    cleanup_fail($sdir, 'fork', "fork failed: $!") unless defined $pid;
    if ($pid == 0) {
        # Its own session: the command must not get the ssh session's hangup when the connection drops.
        require POSIX;
        POSIX::setsid();
        # Blocks only until the fifo's keeper has it open (at once); /dev/null if the fifo could not be made.
        open(STDIN, '<', $in // '/dev/null') or open(STDIN, '<', '/dev/null');
        open(STDOUT, '>&', $out);
        open(STDERR, '>&', $out);
        for my $kv (@env, $tag) {
            my $eq = index($kv, '=');
            $ENV{ substr($kv, 0, $eq) } = substr($kv, $eq + 1) if $eq > 0;
        }
        umask($caller_umask);
        exec { $command[0] } @command;
        print STDERR "runboard: cannot run perl on this host: $!\n";
        POSIX::_exit(126);
    }
    my $s = stat_of($pid);
    if (open(my $fh, '>', "$sdir/pid")) {
        print $fh "$pid " . ($s ? $s->[3] : 0) . "\n";
        close($fh);
    }
    print "ok $pid " . ($s ? $s->[3] : 0) . "\n";
}

# The command's stdin is the fifo DIR/s/ID/in. A keeper process (its own session, not the command's,
# so no kill or tree counts it) holds it open for writing, so the command sees no end of input between
# runboard's writes; stdin_close ends the keeper, and the command then reads EOF. The keeper also ends
# once the session has (its status is there, its wrapper gone, or its folder removed). Undef when no fifo
# could be made: the command then reads /dev/null, as before.
sub stdin_fifo {
    my ($sdir) = @_;
    my $fifo = "$sdir/in";
    require POSIX;
    POSIX::mkfifo($fifo, 0600) or return undef;
    my $keeper = fork();
    return undef unless defined $keeper;
    if ($keeper == 0) {
        POSIX::setsid();
        open(STDIN, '<', '/dev/null');
        open(STDOUT, '>', '/dev/null');
        open(STDERR, '>', '/dev/null');
        open(my $hold, '+<', $fifo) or POSIX::_exit(1);    # read-write: never blocks, and is a writer
        while (-d $sdir && !-e "$sdir/status") {
            if (open(my $fh, '<', "$sdir/pid")) {
                my ($pid, $ticks) = split(' ', <$fh> // '');
                close($fh);
                last if defined $ticks && !alive($pid, $ticks);
            }
            sleep(1);
        }
        POSIX::_exit(0);
    }
    if (open(my $fh, '>', "$sdir/in.keeper")) {
        print $fh "$keeper\n";
        close($fh);
    }
    return $fifo;
}

# Writes this call's stdin into the session's fifo; blocks while the command does not read (as a pipe does).
sub stdin_write {
    my ($id) = @_;
    fail('usage', 'stdin needs a session id') unless defined $id && $id =~ /^[\w.-]+$/;
    my $fifo = "$dir/s/$id/in";
    fail('gone', "session $id takes no input on this host") unless -p $fifo && -e "$dir/s/$id/in.keeper";
    fail('gone', "session $id has ended") if -e "$dir/s/$id/status";
    # Non-blocking open: with the keeper gone (input closed) there is no reader to wait for.
    require Fcntl;
    sysopen(my $out, $fifo, Fcntl::O_WRONLY() | Fcntl::O_NONBLOCK()) or fail('gone', "session $id takes no more input: $!");
    my $flags = fcntl($out, Fcntl::F_GETFL(), 0);
    fcntl($out, Fcntl::F_SETFL(), $flags & ~Fcntl::O_NONBLOCK());
    $SIG{PIPE} = 'IGNORE';
    my $buffer;
    while ((my $n = sysread(STDIN, $buffer, 65536)) > 0) {
        my $off = 0;
        while ($off < $n) {
            my $w = syswrite($out, $buffer, $n - $off, $off);
            fail('gone', "session $id stopped reading its input: $!") unless defined $w;
            $off += $w;
        }
    }
    close($out);
    print "ok\n";
}

sub stdin_close {
    my ($id) = @_;
    fail('usage', 'stdin_close needs a session id') unless defined $id && $id =~ /^[\w.-]+$/;
    if (open(my $fh, '<', "$dir/s/$id/in.keeper")) {
        my $keeper = <$fh> // '';
        close($fh);
        chomp($keeper);
        kill('TERM', $keeper) if $keeper =~ /^\d+$/ && $keeper > 1;
        unlink("$dir/s/$id/in.keeper");
    }
    print "ok\n";
}

# A start is refused while the sessions' folder has less than 64 KiB free: asked before runboard
# creates anything, so a full disk is a one-line refusal, not a session that failed half way.
sub room {
    mkdir("$dir/s", 0700);
    my $probe = "$dir/s/.room";
    my $ok = open(my $fh, '>', $probe);
    $ok = $ok && (syswrite($fh, "\0" x 65536) // -1) == 65536;
    my $why = $! || 'short write';
    $ok = close($fh) && $ok if $fh;
    unlink($probe);
    fail('disk', "no room for a session in $dir/s ($why)") unless $ok;
    print "ok\n";
}

sub cleanup_fail {
    my ($sdir, $kind, $message) = @_;
    unlink(glob("$sdir/*"));
    rmdir($sdir);
    fail($kind, $message);
}

# One frame per session: "ID SIZE ALIVE STATUS_LEN DATA_LEN\n", then the status file's bytes, then
# the output from OFFSET (at most MAX bytes). The status is read before the size: once a status is
# seen, the size read after it is final, so a client that has every byte up to it has them all.
sub poll {
    my ($max, $with_usage) = @_;
    $max ||= 8 << 20;
    $| = 0;
    my @polled;
    while (my $line = <STDIN>) {
        my ($id, $offset, $pid, $ticks, $tag) = split(' ', $line);
        next unless defined $ticks && $id =~ /^[\w.-]+$/;
        push @polled, [$id, $pid, $ticks, $tag];
        my $sdir = "$dir/s/$id";
        my $status = '';
        if (open(my $fh, '<', "$sdir/status")) {
            local $/;
            $status = <$fh> // '';
            close($fh);
        }
        # An ended session's disk: a full one cut its output (the command's writes failed there, unseen), as
        # runboard says of a local session whose disk was full at its end.
        $status .= "host_disk_free " . disk_free($sdir) . "\n" if length($status) && $status =~ /\n\z/;
        my $size = -s "$sdir/out";
        my $alive = alive($pid, $ticks) ? 1 : 0;
        my $want = 0;
        my $fh;
        if (!defined $size) {
            $size = -1;    # the session's folder is gone: not ours, or forgotten
        } elsif ($size > $offset && open($fh, '<', "$sdir/out")) {
            binmode($fh);
            sysseek($fh, $offset, 0);
            $want = $size - $offset < $max ? $size - $offset : $max;
        }
        print "$id $size $alive " . length($status) . " $want\n", $status;
        # Streamed in chunks as read: the transfer and the next read overlap, and no output is held whole.
        my $left = $want;
        while ($left > 0) {
            my $chunk = '';
            my $n = sysread($fh, $chunk, $left < CHUNK ? $left : CHUNK);
            # The file only grows, so a short read cannot happen; should it, the frame is still whole.
            $chunk = "\0" x ($left < CHUNK ? $left : CHUNK) unless $n;
            print $chunk;
            $left -= length($chunk);
        }
        close($fh) if $fh;
        $max -= $want;
    }
    usage(@polled) if defined $with_usage && $with_usage eq 'usage';
}

# Bytes free for this user on the file system holding DIR (df's "Available"); -1 when df cannot say.
sub disk_free {
    my ($path) = @_;
    open(my $df, '-|', 'df', '-Pk', $path) or return -1;
    my @lines = <$df>;
    close($df);
    my @f = split(' ', $lines[-1] // '');
    return defined $f[3] && $f[3] =~ /^\d+$/ ? $f[3] * 1024 : -1;
}

sub sysconf {
    require POSIX;
    print "ok " . POSIX::sysconf(POSIX::_SC_CLK_TCK()) . " " . POSIX::sysconf(POSIX::_SC_PAGESIZE()) . "\n";
}

# The poll's last frame, "#usage LENGTH\n" and LENGTH bytes: "uptime SECONDS" (this host's clock for
# CPU %), then per process of a polled session "p ID PID PPID PGID STATE START_TICKS TICKS CHILD_TICKS
# RSS_PAGES COMMAND". A session's processes are found as a kill finds them (runboard-wrap.pl's find_session): its group,
# the leader's descendants, and processes of our user younger than it carrying its tag; one pass over
# /proc for all sessions, each process's environment read at most once.
sub usage {
    my @sessions = @_;
    my %table;
    opendir(my $dh, '/proc') or return;
    for my $p (grep { /^\d+$/ } readdir($dh)) {
        my $f = stat_of($p, 1);
        $table{$p} = $f if $f && $f->[0] ne 'Z' && $f->[0] ne 'X' && $p != $$;
    }
    closedir($dh);
    my %children;
    push @{ $children{ $table{$_}[1] } }, $_ for keys %table;
    my (%owner, %by_tag);
    for my $s (@sessions) {
        my ($id, $leader, $ticks, $tag) = @$s;
        $by_tag{$tag} = $s if defined $tag && length($tag);
        next unless $table{$leader} && $table{$leader}[3] == $ticks;
        my @todo = ($leader);
        $owner{$leader} //= $s;
        while (defined(my $p = shift @todo)) {
            push @todo, grep { !$owner{$_} && ($owner{$_} = $s) } @{ $children{$p} || [] };
        }
        $owner{$_} //= $s for grep { $table{$_}[2] == $leader } keys %table;
    }
    if (%by_tag) {
        for my $p (keys %table) {
            next if $owner{$p} || (stat("/proc/$p"))[4] != $<;
            my $s = $by_tag{ tag_of($p) // '' };
            $owner{$p} = $s if $s && $table{$p}[3] >= $s->[2];
        }
    }
    my $text = '';
    if (open(my $fh, '<', '/proc/uptime')) {
        my $u = <$fh>;
        close($fh);
        $text .= "uptime " . (split(' ', $u // '0'))[0] . "\n";
    }
    for my $p (sort { $a <=> $b } keys %owner) {
        my $f = $table{$p};
        my $command = command_of($p);
        $command = "[$f->[8]]" unless length($command);
        $text .= join(' ', 'p', $owner{$p}[0], $p, @$f[1, 2, 0, 3, 4, 5, 6], $command) . "\n";
    }
    print "#usage " . length($text) . "\n", $text;
}

# The value of the RUNBOARD_SESSION-style tag in a process's environment, as "NAME=VALUE"; undef when none.
sub tag_of {
    my ($p) = @_;
    open(my $fh, '<', "/proc/$p/environ") or return undef;
    local $/;
    my $env = <$fh>;
    close($fh);
    return undef unless defined $env;
    for my $kv (split(/\0/, $env)) {
        return $kv if index($kv, 'RUNBOARD_SESSION=') == 0;
    }
    return undef;
}

# A session's kill is its wrapper's, as everywhere (docs/PROCESS-TREE.md): the wrapper's kill mode asks
# the session's wrapper, or does the same kill without it when it is gone, and prints the report.
sub kill_session {
    my ($id, $pid, $ticks, $signal, $grace_ms, $why, $tag) = @_;
    fail('usage', 'kill ID PID START_TICKS SIGNAL GRACE_MS WHY TAG') unless defined $tag && $id =~ /^[\w.-]+$/;
    exec { 'perl' } 'perl', "$dir/runboard-wrap.pl", '--kill', "$dir/s/$id/status", $pid, $ticks, $signal, $grace_ms,
        $why, $tag;
    fail('perl', "cannot run perl: $!");
}

# One signal to the session's command's group (its own, below the wrapper, which names it in `command`);
# the wrapper's own group for a wrapper older than that file.
sub signal_session {
    my ($id, $pid, $ticks, $signal) = @_;
    fail('gone', "process $pid has ended") unless alive($pid, $ticks);
    my $group = $pid;
    if ($id =~ /^[\w.-]+$/ && open(my $fh, '<', "$dir/s/$id/command")) {
        my $line = <$fh> // '';
        close($fh);
        $group = $1 if $line =~ /^(\d+) \d+$/;
    }
    kill($signal, -$group) or fail('signal', "cannot signal the group of $group: $!");
    print "ok\n";
}

sub forget {
    for my $id (grep { /^[\w.-]+$/ } @_) {
        my $sdir = "$dir/s/$id";
        unlink(glob("$sdir/*"));
        rmdir($sdir);
    }
    print "ok\n";
}

# [state, ppid, pgid, start ticks] from /proc/PID/stat (fields after the command's last ')'); with
# $full also [utime+stime, cutime+cstime, rss pages, -, comm], as the wrapper's stat_of.
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

sub alive {
    my ($p, $ticks) = @_;
    return 0 unless defined $p && $p =~ /^\d+$/ && $p > 1;
    my $s = stat_of($p);
    return $s && $s->[0] ne 'Z' && $s->[0] ne 'X' && $s->[3] == $ticks;
}

sub command_of {
    my ($p) = @_;
    open(my $fh, '<', "/proc/$p/cmdline") or return '';
    local $/;
    my $c = <$fh> // '';
    close($fh);
    $c =~ s/\0+$//;
    $c =~ tr/\0\n/  /;
    return $c;
}

# One session's output stream, kept open over the ssh connection: its bytes from OFFSET on, raw, as the command
# writes them. runboard makes this call's stdout the session's local capture itself, so ssh writes the bytes
# straight into it (nothing on runboard's side reads or copies them), and asks again from the capture's end after a
# dropped connection: each byte arrives once. Exit 0 once the command has ended and every byte was sent (the
# client then polls for the status at once); exit 3 when the session's folder is not there. Its input is held
# open by runboard and never written: its end says runboard has gone (or stopped the stream), and so does this.
sub FOLLOW_CHUNK () { 4 << 20 }
sub follow {
    my ($id, $at) = @_;
    # Its stdout is the capture: a problem is said on stderr.
    if (!defined $at || $id !~ /^[\w.-]+$/ || $at !~ /^\d+$/) {
        print STDERR "error usage: follow needs ID OFFSET\n";
        exit 3;
    }
    my $fh;
    if (!open($fh, '<', "$dir/s/$id/out")) {
        print STDERR "error gone: no session $id here\n";
        exit 3;
    }
    binmode($fh);
    my $rin = '';
    vec($rin, fileno(STDIN), 1) = 1;
    my $wait = 0;
    while (1) {
        # A quiet command is looked at less often, up to every 50 ms; a busy one is never waited for.
        if (select(my $rout = $rin, undef, undef, $wait) > 0) {
            my $n = sysread(STDIN, my $ignored, 4096);
            exit 1 unless $n;    # runboard has gone: nobody to send to
        }
        # The status before the size: once it is there, the size read after it is final.
        my $ended = -e "$dir/s/$id/status";
        my $size = -s $fh;
        if ($size > $at) {
            # The bytes up to SIZE are there (an output only grows).
            my $want = $size - $at < FOLLOW_CHUNK ? $size - $at : FOLLOW_CHUNK;
            send_range($fh, $at, $want) or exit 1;
            $at += $want;
            $wait = 0;
            next;
        }
        exit 0 if $ended;
        if (!-d "$dir/s/$id") {    # forgotten while followed: no status will come
            print STDERR "error gone: session $id was removed\n";
            exit 3;
        }
        $wait = $wait == 0 ? 0.002 : $wait * 2 < 0.05 ? $wait * 2 : 0.05;
    }
}

# Sends LENGTH bytes of FH from OFFSET to stdout: by sendfile(2), which copies them in the kernel (512 MiB cost
# this perl 0.1 s of CPU against 0.5-0.7 s read and written, on ssh's cores: docs/BENCHMARKS.md §12), or read
# and written where the call is unknown or refused (an old kernel, stdout of a kind it cannot write to).
# False when the connection has gone (or the file ended early, which an output that only grows does not).
my $sendfile;
sub EINTR () { 4 }
sub EAGAIN () { 11 }
sub EPIPE () { 32 }
sub ECONNRESET () { 104 }
sub send_range {
    my ($fh, $offset, $length) = @_;
    $sendfile //= sendfile_call();
    while ($length > 0 && $sendfile) {
        my $at = pack('q', $offset);    # loff_t, which the call moves on; the file's own offset stays
        my $n = syscall($sendfile, fileno(STDOUT), fileno($fh), $at, $length);
        if ($n > 0) {
            ($offset, $length) = ($offset + $n, $length - $n);
        } elsif ($n == 0 || $! == EPIPE || $! == ECONNRESET) {
            return 0;
        } elsif ($! != EINTR && $! != EAGAIN) {
            $sendfile = 0;    # refused for these descriptors: read and write from here on
        }
    }
    sysseek($fh, $offset, 0) if $length > 0;
    while ($length > 0) {
        my $chunk = '';
        my $n = sysread($fh, $chunk, $length < CHUNK ? $length : CHUNK);
        return 0 unless $n;
        write_all($chunk) or return 0;
        $length -= $n;
    }
    return 1;
}

# sendfile's number on this machine's kernel (0: not known here, read and write instead).
sub sendfile_call {
    require POSIX;    # for this long-lived call alone: the short ones do not pay for the module
    return { x86_64 => 40, aarch64 => 71, riscv64 => 71 }->{(POSIX::uname())[4]} || 0;
}

sub write_all {
    my ($bytes) = @_;
    my $off = 0;
    while ($off < length $bytes) {
        my $n = syswrite(STDOUT, $bytes, length($bytes) - $off, $off);
        return 0 unless defined $n;
        $off += $n;
    }
    return 1;
}

# "SIZE LENGTH\n" then LENGTH bytes of the session's output from OFFSET (fewer at its end): the
# viewer's pages of an output that is not (all) here yet.
sub read_range {
    my ($id, $offset, $length) = @_;
    fail('usage', 'read ID OFFSET LENGTH') unless defined $length && $id =~ /^[\w.-]+$/
        && $offset =~ /^\d+$/ && $length =~ /^\d+$/;
    my $file = "$dir/s/$id/out";
    open(my $fh, '<', $file) or fail('gone', "no output of session $id on this host: $!");
    binmode($fh);
    my $size = -s $fh;
    my $want = $offset >= $size ? 0 : $size - $offset < $length ? $size - $offset : $length;
    sysseek($fh, $offset, 0) if $want;
    my $chunk = '';
    my $got = 0;
    while ($got < $want) {
        my $n = sysread($fh, $chunk, $want - $got, $got);
        last unless $n;
        $got += $n;
    }
    write_all("$size $got\n") && write_all($chunk);
}

sub size_of {
    my ($id) = @_;
    fail('usage', 'size ID') unless defined $id && $id =~ /^[\w.-]+$/;
    my $size = -s "$dir/s/$id/out";
    fail('gone', "no output of session $id on this host") unless defined $size;
    print "$size\n";
}

# Writes stdin into DIR/s/ID/NAME whole (a temp name, then renamed: a reader never sees half of it), 0600.
# The folder of a session someone else runs (a Slurm job submitted on this host) is made here.
sub put_file {
    my ($id, $name) = @_;
    fail('usage', 'put ID NAME') unless defined $name && $id =~ /^[\w.-]+$/ && $name =~ /^[\w.-]+$/;
    my $sdir = "$dir/s/$id";
    mkdir("$dir/s", 0700);
    mkdir($sdir, 0700);
    my $tmp = "$sdir/.$name.$$";
    open(my $fh, '>', $tmp) or fail('disk', "cannot write $tmp: $!");
    binmode($fh);
    local $/;
    my $content = <STDIN> // '';
    my $ok = (print $fh $content) && close($fh);
    unlink($tmp), fail('disk', "cannot write $sdir/$name: $!") unless $ok && rename($tmp, "$sdir/$name");
    print "ok\n";
}

sub drop_files {
    my ($id, @names) = @_;
    fail('usage', 'drop ID NAME...') unless defined $id && $id =~ /^[\w.-]+$/;
    unlink("$dir/s/$id/$_") for grep { /^[\w.-]+$/ } @names;
    print "ok\n";
}

# One look at the folders of sessions someone else runs (Slurm jobs submitted on this host), and one command run
# first (squeue, with its output and exit, so that Slurm's view is not newer than the files'):
#   "run EXIT OUT_LEN ERR_LEN\n", its stdout, its stderr (when ARGV was given), then per session and NAME
#   "f ID NAME MTIME_MS LENGTH\n" and LENGTH bytes: the file's content for a NAME given as +NAME (at most 1 MiB),
#   none otherwise; MTIME_MS -1 when there is no such regular file (a FIFO is never opened).
sub look {
    my (@names, @argv);
    my $into = \@names;
    for my $a (@_) {
        if ($a eq '--' && $into == \@names) { $into = \@argv } else { push @$into, $a }
    }
    my @ids = grep { /^[\w.-]+$/ } map { my $l = $_; chomp($l); $l } <STDIN>;
    if (@argv) {
        my ($exit, $out, $err) = run_captured(@argv);
        print "run $exit " . length($out) . " " . length($err) . "\n", $out, $err;
    }
    my $hires = eval { require Time::HiRes; 1 };
    for my $id (@ids) {
        for my $asked (@names) {
            my $n = $asked;
            my $content = $n =~ s/^\+//;
            next unless $n =~ /^[\w.-]+$/;
            my $path = "$dir/s/$id/$n";
            my @st = $hires ? Time::HiRes::lstat($path) : lstat($path);
            my $regular = @st && -f _;
            my $bytes = '';
            if ($regular && $content && open(my $fh, '<', $path)) {
                binmode($fh);
                read($fh, $bytes, 1 << 20);
                close($fh);
            }
            print "f $id $n " . ($regular ? int($st[9] * 1000) : -1) . " " . length($bytes) . "\n", $bytes;
        }
    }
}

# Runs ARGV with no input; its exit code (127: not found), stdout and stderr.
sub run_captured {
    my @argv = @_;
    pipe(my $out_r, my $out_w) or return (127, '', "pipe: $!\n");
    pipe(my $err_r, my $err_w) or return (127, '', "pipe: $!\n");
    my $pid = fork();
    return (127, '', "fork: $!\n") unless defined $pid;
    if ($pid == 0) {
        close($out_r);
        close($err_r);
        open(STDIN, '<', '/dev/null');
        open(STDOUT, '>&', $out_w);
        open(STDERR, '>&', $err_w);
        exec { $argv[0] } @argv;
        print STDERR "$argv[0]: not found ($!)\n";
        require POSIX;
        POSIX::_exit(127);
    }
    close($out_w);
    close($err_w);
    my %text = (out => '', err => '');
    my %open = (out => $out_r, err => $err_r);
    while (%open) {
        my $rin = '';
        vec($rin, fileno($open{$_}), 1) = 1 for keys %open;
        select(my $rout = $rin, undef, undef, undef) > 0 or next;
        for my $k (keys %open) {
            next unless vec($rout, fileno($open{$k}), 1);
            my $n = sysread($open{$k}, $text{$k}, 65536, length $text{$k});
            delete $open{$k} unless $n;
        }
    }
    waitpid($pid, 0);
    my $exit = $? & 127 ? 128 + ($? & 127) : $? >> 8;
    return ($exit, $text{out}, $text{err});
}

sub now_ms {
    return eval { require Time::HiRes; int(Time::HiRes::time() * 1000) } // time() * 1000;
}
