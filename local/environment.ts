import { resetConfigForTests } from '../functions/platform/config';

/**
 * Points the handlers' configuration at the embedded servers by setting the environment they
 * read in Lambda, then makes config() parse it again. Returns a function that puts every variable
 * back as it was.
 */
export function applyEnvironment(variables: Readonly<Record<string, string>>): () => void {
  const previous = new Map(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  resetConfigForTests();
  return () => {
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfigForTests();
  };
}
