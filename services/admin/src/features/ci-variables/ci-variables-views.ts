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

/** GitLab's project or group variable (`Entities::Ci::Variable`): the instance's fields with `hidden` and the environment scope. */
export const scopedVariableView = ({ variable, value }: VariableWithValue) => ({
  variable_type: variable.variableType,
  key: variable.key,
  value,
  hidden: false,
  protected: variable.protected,
  masked: variable.masked,
  raw: variable.raw,
  environment_scope: variable.environmentScope,
  description: variable.description,
});
