package dev.runboard.store;

import java.util.Map;

/**
 * What {@link LeanJson} would otherwise read from class files at its first write in every JVM, for
 * a session's record and snapshot and the types they hold: ~30 ms of CPU, an exec's while its
 * command runs (docs/BENCHMARKS.md §10, round 13). Written by LeanJsonLayoutsTest, which fails when
 * this differs from what the class files say; do not edit by hand.
 */
final class LeanJsonLayouts {
    /** A record's JSON properties in order, as "json name=accessor" pairs separated by commas. */
    static final Map<String, String> RECORDS = Map.ofEntries(
            Map.entry("dev.runboard.session.KillReport",
                    "reason=reason,signal=signal,grace_ms=graceMillis,requested_at=requestedAt,process_group=processGroup,signalled=signalled,escalated_to_kill=escalatedToKill,killed_after_grace=killedAfterGrace,swept_by_tag=sweptByTag,finished_at=finishedAt,duration_ms=durationMillis,survivors=survivors,not_ours=notOurs,notes=notes"),
            Map.entry("dev.runboard.session.OutputRule",
                    "pattern=pattern,action=action"),
            Map.entry("dev.runboard.session.ProcessRef",
                    "pid=pid,command=command"),
            Map.entry("dev.runboard.session.ResourceTotals",
                    "peak_rss_bytes=peakRssBytes,cpu_seconds=cpuSeconds"),
            Map.entry("dev.runboard.session.SessionEvent",
                    "time=time,kind=kind,message=message"),
            Map.entry("dev.runboard.session.SessionSnapshot",
                    "status=status,session_id=sessionId,command=command,argv=argv,cwd=cwd,shell=shell,env=env,pid=pid,started_at=startedAt,ended_at=endedAt,elapsed_seconds=elapsedSeconds,timeout_seconds=timeoutSeconds,grace_seconds=graceSeconds,nice=nice,exit_code=exitCode,signal=signal,reason=reason,output=output,output_truncated=outputTruncated,output_bytes=outputBytes,output_original_bytes=outputOriginalBytes,output_visible_bytes=outputVisibleBytes,output_dropped_bytes=outputDroppedBytes,last_line=lastLine,artifact=artifact,artifact_error=artifactError,artifact_error_code=artifactErrorCode,capture_file=captureFile,kill_report=killReport,resources=resources,events=events,host=host,connection=connection,lingering=lingering,ready=ready,depends_on=dependsOn,restarts=restarts,previous_run=previousRun,stack_name=stackName,stack_file=stackFile,progress=progress,progress_basis=progressBasis,eta_seconds=etaSeconds,longer_than_usual=longerThanUsual,slurm=slurm,raw_output=rawOutput"),
            Map.entry("dev.runboard.session.SlurmJob",
                    "job_id=jobId,node=node,partition=partition,state=state,reason=reason"),
            Map.entry("dev.runboard.session.SlurmTarget",
                    "sbatch=sbatch"),
            Map.entry("dev.runboard.session.WatchSpec",
                    "rules=rules,hang_after=hangAfter,hang_action=hangAction,max_rss_bytes=maxRssBytes,max_cpu_percent=maxCpuPercent,cpu_for=cpuFor"),
            Map.entry("dev.runboard.store.SessionRecord",
                    "schema=schema,session_id=id,spec=spec,status=status,pid=pid,pid_start_ticks=pidStartTicks,started_at=startedAt,ended_at=endedAt,exit_code=exitCode,signal=signal,reason=reason,output_head=outputHead,output_tail=outputTail,output_bytes=outputBytes,output_note=outputNote,artifact=artifact,artifact_error=artifactError,artifact_error_code=artifactErrorCode,capture_file=captureFile,kill_report=killReport,resources=resources,events=events,stack=stack,ready=ready,output_dropped_bytes=outputDroppedBytes,connection=connection,slurm=slurm"),
            Map.entry("dev.runboard.store.SpecRecord",
                    "command=command,argv=argv,shell=shell,cwd=cwd,env=env,timeout_ms=timeoutMillis,grace_ms=graceMillis,preview_bytes=previewBytes,pty=pty,watch=watch,nice=nice,host=host,max_output_bytes=maxOutputBytes,secret_env=secretEnv,slurm=slurm"));

    /** An enum's JsonValue method, or "" when its constants are written by name. */
    static final Map<String, String> ENUMS = Map.ofEntries(
            Map.entry("dev.runboard.session.OutputRule$Action",
                    ""),
            Map.entry("dev.runboard.session.SessionStatus",
                    ""),
            Map.entry("dev.runboard.session.WatchSpec$HangAction",
                    ""));

    private LeanJsonLayouts() {
    }
}
