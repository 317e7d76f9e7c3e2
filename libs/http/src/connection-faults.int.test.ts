/**
 * A database connection terminated under a request (as `pg_terminate_backend` or a restarting
 * PostgreSQL does): reads are retried once on a new connection, writes answer 503, never 500.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { defineEntity, p } from '@mikro-orm/core';
import { Migration, openDatabase, requestScope, type Orm } from '@platform/db';
import { createLogger } from '@platform/logger';
import { adminCaller, callerHeader, createTestDatabase, TEST_INTERNAL_SECRET, waitFor, type TestDatabase } from '@platform/testing';
import { createServiceApp } from './service-app.ts';

const Note = defineEntity({ name: 'Note', tableName: 'notes', properties: { id: p.integer().primary() } });
class Notes extends Migration {
  override name = 'Notes';
  override up(): void {
    this.addSql('create table notes (id int primary key)');
  }
}

const logger = createLogger({ name: 'connection-faults-test', level: 'silent' });
let database: TestDatabase;
let orm: Orm;
let app: express.Express;
const attempts = { read: 0, write: 0 };

/** The first attempt of each request loses its connection mid-query. */
async function queryLosingConnectionOnce(attempt: number) {
  if (attempt === 1) await orm.em.execute('select pg_terminate_backend(pg_backend_pid())');
  return orm.em.execute('select count(*)::int as count from notes');
}

beforeAll(async () => {
  database = createTestDatabase('connection_faults');
  orm = await openDatabase({ url: database.url, entities: [Note], migrations: [{ name: 'Notes', class: Notes }], logger });
  const routes = express.Router();
  routes.get('/api/v4/notes', async (_req, res) => {
    attempts.read += 1;
    res.json(await queryLosingConnectionOnce(attempts.read));
  });
  routes.post('/api/v4/notes', async (_req, res) => {
    attempts.write += 1;
    res.status(201).json(await queryLosingConnectionOnce(attempts.write));
  });
  app = createServiceApp({
    logger,
    internalSecret: TEST_INTERNAL_SECRET,
    readinessChecks: {},
    requestScope: requestScope(orm),
    routes: [routes],
  });
});

afterAll(async () => {
  await orm?.close();
  await database?.drop();
});

describe('a terminated database connection', () => {
  it('is retried once for a read, which then succeeds', async () => {
    const response = await request(app).get('/api/v4/notes').set(callerHeader(adminCaller()));
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ count: 0 }]);
    expect(attempts.read).toBe(2);
  });

  it('answers a write 503 with a GitLab body, without retrying it', async () => {
    const response = await request(app).post('/api/v4/notes').set(callerHeader(adminCaller())).send({});
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ message: '503 Service Unavailable' });
    expect(attempts.write).toBe(1);
    // The pool replaces the lost connection; until it noticed, a write may meet it once more (503, never 500).
    const statuses: number[] = [];
    await waitFor(async () => {
      const { status } = await request(app).post('/api/v4/notes').set(callerHeader(adminCaller())).send({});
      statuses.push(status);
      return status === 201 ? true : undefined;
    });
    expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
  });
});
