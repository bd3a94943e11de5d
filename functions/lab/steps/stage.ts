import { logger } from '../../platform/observability';
import { type JobsRepository, JobTransitionError } from '../../platform/ports';
import { allowedPredecessors, isTerminal, type LabProgressState } from '../job-states';
import { asLabJob, type LabJob } from '../lab-job';
import { type PipelineIo, pipelineIo } from './pipeline-io';
import { type PipelineState, PipelineStateSchema } from './pipeline-state';
import { JobAlreadyFinished } from './step-errors';
import { labWorker } from './worker';

/**
 * The pipeline's steps in order, each with the job status (spec §3.2) it runs under. A step writes
 * that status (forward only) and its start time when it begins, so the status endpoint shows where a
 * job is and the benchmark reads each stage's duration from the job.
 */
const LAB_STEPS = {
  validate_pdf: 'processing_language',
  recognize: 'processing_language',
  detect_language: 'processing_language',
  detect_phi: 'processing_phi',
  classify: 'processing_extraction',
  extract: 'processing_extraction',
  map_loinc: 'processing_extraction',
  standardise_ucum: 'processing_extraction',
  finalise: 'processing_extraction',
} as const satisfies Record<string, LabProgressState>;
export type LabStep = keyof typeof LAB_STEPS;

async function beginStage(jobs: JobsRepository, jobId: string, step: LabStep, now = new Date()): Promise<LabJob> {
  const current = await jobs.get('lab', jobId);
  if (!current) throw new JobAlreadyFinished(`Job ${jobId} no longer exists`);
  if (isTerminal(current.status)) throw new JobAlreadyFinished(`Job ${jobId} has already finished`);
  const job = asLabJob(current);
  const stageTimes = { ...job.stageTimes, [step]: now.toISOString() };
  const to = LAB_STEPS[step];
  try {
    return asLabJob(await jobs.transition('lab', jobId, { from: allowedPredecessors(to), to, set: { stageTimes } }));
  } catch (error) {
    if (error instanceof JobTransitionError) throw new JobAlreadyFinished(`Job ${jobId} moved on: ${error.current ?? 'gone'}`);
    throw error;
  }
}

/**
 * A Step Functions task of the lab pipeline: validates the state, begins the stage, runs the step,
 * logs ids and timing only. The step returns the next state.
 */
export function labStep(
  step: LabStep,
  run: (job: LabJob, state: PipelineState, io: PipelineIo) => Promise<PipelineState>,
) {
  return labWorker(async (event: unknown): Promise<PipelineState> => {
    const state = PipelineStateSchema.parse(event);
    const started = performance.now();
    const io = pipelineIo();
    const job = await beginStage(io.jobs, state.jobId, step);
    try {
      const next = await run(job, state, io);
      logger.info('lab step done', { step, jobId: state.jobId, outcome: next.outcome?.status, durationMs: Math.round(performance.now() - started) });
      return next;
    } catch (error) {
      logger.warn('lab step failed', { step, jobId: state.jobId, errorName: error instanceof Error ? error.name : typeof error });
      throw error;
    }
  });
}
