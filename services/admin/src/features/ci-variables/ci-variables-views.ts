import type { VariableWithValue } from './ci-variables-service.ts';

/** GitLab's instance variable. */
export const variableView = ({ variable, value }: VariableWithValue) => ({
  key: variable.key,
  variable_type: variable.variableType,
  value,
  protected: variable.protected,
  masked: variable.masked,
  raw: variable.raw,
  description: variable.description,
});
