export { startGrpcServer } from './grpc-server.ts';
export type { GrpcServer, GrpcServiceBinding } from './grpc-server.ts';
export { errorToGrpcStatus, grpcErrorToDomain } from './status-mapping.ts';
export { unaryHandler } from './unary-handler.ts';
export { callUnary, channelState, CLIENT_CHANNEL_OPTIONS, createChannelCredentials } from './grpc-client.ts';
export { grpc } from './grpc-reexport.ts';
export { internalClientOptions, requireRpcScope, CALLER_METADATA } from './internal-credentials.ts';
export type { RpcScope } from './internal-credentials.ts';
