/**
 * Keeps the engine's WAL from growing without end under steady load (see
 * electron/common/wal-checkpointer.ts for why it did): once the WAL holds `restartFrames` frames and the
 * worker's checkpoints are close behind the writer, the group-commit writer holds its
 * commits while the worker copies the last frames; the next write then starts the WAL over
 * and overwrites blocks the file already has. Should the checkpoints fall far behind
 * (`hardLimitFrames`), the writer holds until they catch up: back-pressure, not a WAL the
 * size of the disk.
 *
 * The hold is short (the few frames written since the last checkpoint and an fsync of the
 * database file: about a millisecond here) and happens every `restartFrames` frames; the
 * requests that arrive meanwhile wait in the writer's queue, as they would for an fsync.
 */
import type { GroupCommitWriter } from './group-commit-writer';
import type { CheckpointProgress, WalCheckpointer } from '../../common/wal-checkpointer';

export interface WalRestartOptions {
  /** WAL size, in frames, from which the writer helps it start over (default 4096: about 16 MiB of 4 KiB pages). */
  restartFrames?: number;
  /** Frames the checkpoint may trail the writer by for a hold to be short (default a quarter of restartFrames). */
  catchUpFrames?: number;
  /** WAL size at which the writer holds however far the checkpoint trails (default 8 × restartFrames). */
  hardLimitFrames?: number;
}

export function keepWalBounded(writer: GroupCommitWriter, checkpointer: WalCheckpointer, opts: WalRestartOptions = {}): void {
  const restartFrames = opts.restartFrames ?? 4096;
  const catchUpFrames = opts.catchUpFrames ?? Math.ceil(restartFrames / 4);
  const hardLimitFrames = opts.hardLimitFrames ?? restartFrames * 8;
  checkpointer.onProgress((p: CheckpointProgress) => {
    if (p.log < restartFrames) return;
    if (p.log - p.checkpointed > catchUpFrames && p.log < hardLimitFrames) return;
    // A hold asked for while one runs is skipped by the writer.
    void writer.hold(() => checkpointer.catchUp());
  });
}
