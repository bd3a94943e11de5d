import type { LabExtraction } from '../parsers';
import type { LabPanel, PanelResult } from '../results-schema';
import { labKeys } from '../storage-keys';
import { type PipelineIo, readJson, writeJson } from './pipeline-io';

/** Rewrites every result of the job's extraction artifact with `change` (the code-mapping steps). */
export async function updateResults(
  io: PipelineIo,
  jobId: string,
  change: (result: PanelResult, panel: LabPanel) => PanelResult,
): Promise<void> {
  const key = labKeys(jobId).extraction;
  const extraction = await readJson<LabExtraction>(io, key);
  const panels = extraction.panels.map((panel) => ({ ...panel, panelResults: panel.panelResults.map((result) => change(result, panel)) }));
  await writeJson(io, key, { ...extraction, panels });
}
