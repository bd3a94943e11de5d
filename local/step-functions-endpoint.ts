import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeGracefully, listenOnLoopback } from './http-server';
import { type ExecutionRecord, type LocalStepFunctions, StepFunctionsError } from './local-step-functions';

/**
 * The Step Functions API on loopback, speaking the AWS JSON 1.0 protocol that @aws-sdk/client-sfn
 * uses, so the handlers' SFNClient works unchanged with only its endpoint pointed here. Service
 * errors go out as 400 + `x-amzn-errortype` + `{__type, message}`, which the SDK turns into its
 * typed exceptions (ExecutionAlreadyExists, ExecutionDoesNotExist, …).
 */
export interface StepFunctionsEndpoint {
  endpoint: string;
  close(graceMs: number): Promise<void>;
}

const CONTENT_TYPE = 'application/x-amz-json-1.0';

function epochSeconds(date: Date): number {
  return date.getTime() / 1000;
}

function describeBody(record: ExecutionRecord): Record<string, unknown> {
  return {
    executionArn: record.executionArn,
    stateMachineArn: record.stateMachineArn,
    name: record.name,
    status: record.status,
    startDate: epochSeconds(record.startDate),
    ...(record.stopDate ? { stopDate: epochSeconds(record.stopDate) } : {}),
    input: record.input,
    redriveCount: record.redriveCount,
    ...(record.output !== undefined ? { output: record.output } : {}),
    ...(record.error !== undefined ? { error: record.error, cause: record.cause } : {}),
  };
}

function send(res: ServerResponse, status: number, body: Record<string, unknown>, errorType?: string): void {
  const headers: Record<string, string> = { 'content-type': CONTENT_TYPE };
  if (errorType) headers['x-amzn-errortype'] = errorType;
  res.writeHead(status, headers).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function optionalString(request: Record<string, unknown>, field: string): string | undefined {
  const value = request[field];
  return typeof value === 'string' ? value : undefined;
}

async function operate(service: LocalStepFunctions, operation: string, request: Record<string, unknown>): Promise<Record<string, unknown>> {
  switch (operation) {
    case 'StartExecution': {
      const machineArn = optionalString(request, 'stateMachineArn');
      if (!machineArn) throw new StepFunctionsError('InvalidArn', 'stateMachineArn is required');
      const record = await service.start(machineArn, optionalString(request, 'name'), optionalString(request, 'input'));
      return { executionArn: record.executionArn, startDate: epochSeconds(record.startDate) };
    }
    case 'DescribeExecution': {
      const executionArn = optionalString(request, 'executionArn');
      if (!executionArn) throw new StepFunctionsError('InvalidArn', 'executionArn is required');
      return describeBody(service.describe(executionArn));
    }
    default:
      throw new UnknownOperation(operation);
  }
}

class UnknownOperation extends Error {}

export async function startStepFunctionsEndpoint(service: LocalStepFunctions): Promise<StepFunctionsEndpoint> {
  const server: Server = createServer(async (req, res) => {
    const target = req.headers['x-amz-target'];
    const operation = typeof target === 'string' ? target.replace(/^AWSStepFunctions\./, '') : '';
    try {
      send(res, 200, await operate(service, operation, await readJson(req)));
    } catch (error) {
      if (error instanceof StepFunctionsError) send(res, 400, { __type: error.type, message: error.message }, error.type);
      else if (error instanceof UnknownOperation) {
        send(res, 400, { __type: 'UnknownOperationException', message: `Operation not supported locally: ${operation}` }, 'UnknownOperationException');
      } else if (error instanceof SyntaxError) send(res, 400, { __type: 'SerializationException', message: 'Malformed JSON' }, 'SerializationException');
      else send(res, 500, { __type: 'InternalFailure', message: 'Internal failure' }, 'InternalFailure');
    }
  });
  const port = await listenOnLoopback(server, 0);
  return { endpoint: `http://127.0.0.1:${port}`, close: (graceMs) => closeGracefully(server, graceMs) };
}
