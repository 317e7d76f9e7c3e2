import * as grpc from '@grpc/grpc-js';

export { grpc };
