import { z } from '../http/zod';

/**
 * States of a lab extraction job (spec §3.2) and the one order they move in. Every status write is a
 * conditional transition whose allowed predecessors come from here, so a job never moves backwards:
 * a retried step may re-enter the state it already set, a terminal state is never left.
 */
export const LAB_PROGRESS_STATES = ['pending_upload', 'queued', 'processing_language', 'processing_phi', 'processing_extraction'] as const;
export const LAB_TERMINAL_STATES = ['completed', 'failed', 'quarantined', 'rejected_phi', 'invalid_document'] as const;

export const LabJobStateSchema = z
  .enum([...LAB_PROGRESS_STATES, ...LAB_TERMINAL_STATES])
  .describe(
    'pending_upload (waiting for the PUT to uploadUrl), queued, processing_language, processing_phi, processing_extraction, then one of the terminal ' +
      'states completed, failed, quarantined (not English), rejected_phi (PHI found with rejectIfPHI) or invalid_document (see rejection_reason)',
  );
export type LabJobState = z.infer<typeof LabJobStateSchema>;
export type LabProgressState = (typeof LAB_PROGRESS_STATES)[number];
export type LabTerminalState = (typeof LAB_TERMINAL_STATES)[number];

export function isTerminal(state: string): state is LabTerminalState {
  return (LAB_TERMINAL_STATES as readonly string[]).includes(state);
}

/** The states a job may be in for a write that moves it to `to`. */
export function allowedPredecessors(to: LabJobState): readonly LabProgressState[] {
  if (isTerminal(to)) return LAB_PROGRESS_STATES;
  const index = LAB_PROGRESS_STATES.indexOf(to);
  // A progress state follows every earlier one and itself (Step Functions may run a step twice).
  return LAB_PROGRESS_STATES.slice(0, index + 1);
}

/** Whether a job in `from` may be written as `to` (the rule `allowedPredecessors` encodes). */
export function canMove(from: string, to: LabJobState): boolean {
  return (allowedPredecessors(to) as readonly string[]).includes(from);
}

/** Webhook event (spec §6.2) emitted when a job reaches a terminal state. */
export function eventFor(state: LabTerminalState): `job.${LabTerminalState}` {
  return `job.${state}`;
}
