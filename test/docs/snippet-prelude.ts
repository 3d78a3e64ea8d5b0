import ts from 'typescript';

/**
 * Names a snippet may use without defining them, each with the type it is declared with. The
 * types are the SDK's own (`import('mediagw').MediaGateway`), so calls on them are checked.
 */
export type Prelude = Readonly<Record<string, string>>;

/** Every guide's key in {@link PRELUDES}. */
export const EVERY_GUIDE = '*';

const sdk = (name: string) => `import('mediagw').${name}`;
const webhooks = (name: string) => `import('mediagw/webhooks').${name}`;

/** A stored webhook event row, as the placeholder database takes it. */
const eventRow = '{ id: string; type?: string; payload: unknown }';

/**
 * The placeholders of the guides: things the prose calls "your database", "the task ID you
 * stored", "your signing secret". Only names that a guide leaves to the reader belong here;
 * what the SDK exports is imported by the snippets themselves. A name is declared for a snippet
 * only when the snippet neither imports nor declares it at its top level.
 */
export const PRELUDES: Readonly<Record<string, Prelude>> = {
  [EVERY_GUIDE]: {
    client: sdk('MediaGateway'),
    taskId: 'string',
    db: `{
      saveTask(taskId: string): Promise<void>;
      jobs: { insert(row: { taskId: string }): Promise<void> };
      webhookEvents: { insert(row: ${eventRow}): Promise<void>; upsert(row: ${eventRow}): Promise<void> };
    }`,
    saveEvent: '(event: unknown) => Promise<void>',
  },
  'README.md': {
    keyId: 'string',
    signingSecret: 'string',
  },
  'docs/embeddings.md': {
    longDocument: 'string',
    splitIntoChunks: '(text: string) => string[]',
  },
  'docs/images.md': {
    response: sdk('ImagesResponse'),
    // The guide opens with the imports that "every snippet below assumes".
    fileFromPath: `typeof ${sdk('fileFromPath')}`,
  },
  'docs/library.md': {
    assets: `${sdk('AssetSubmitItem')}[]`,
    assetId: 'string',
    group_id: 'string',
  },
  'docs/videos.md': {
    params: sdk('VideoCreateParams'),
    signal: 'AbortSignal',
    task: sdk('VideoTask'),
  },
  'docs/webhooks.md': {
    secretManager: '{ put(name: string, value: { keyId: string; secret: string }): Promise<void> }',
    endpoint: `${sdk('EndpointCreated')}['endpoint']`,
    task_id: 'string',
    eventId: 'string',
    secrets: webhooks('WebhookSecrets'),
    onEvent: `${webhooks('WebhookHandlerOptions')}['onEvent']`,
    newKeyId: 'string',
    newSecret: 'string',
    oldKeyId: 'string',
    oldSecret: 'string',
  },
  // The part of @opentelemetry/api the tracing example uses: the guide's readers install it,
  // the SDK does not depend on it.
  'docs/observability.md': {
    trace: `{ getTracer(name: string): { startSpan(name: string, options?: { attributes?: Record<string, string | number | boolean> }): { setAttribute(key: string, value: string | number | boolean): unknown; addEvent(name: string, attributes?: Record<string, string | number | boolean>): unknown; setStatus(status: { code: number; message?: string }): unknown; recordException(error: Error): unknown; end(): void } } }`,
    SpanStatusCode: '{ readonly UNSET: 0; readonly OK: 1; readonly ERROR: 2 }',
    pinoLogger: `{ debug(obj: object, msg: string): void; info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void }`,
    metrics: `{ histogram(name: string, value: number, tags: object): void; increment(name: string, tags: object): void }`,
  },
  'docs/webhooks-receiving.md': {
    options: webhooks('WebhookHandlerOptions'),
    secrets: webhooks('WebhookSecrets'),
    jobs: '{ enqueue(kind: string, taskId: string): Promise<void> }',
    tasks: '{ markFailed(taskId: string, message: string): Promise<void> }',
    batches: '{ close(batchId: string, summary: unknown): Promise<void> }',
    unknownEvents: '{ store(event: unknown): Promise<void> }',
    alreadyHandled: '(eventId: string) => Promise<boolean>',
    reply: '(status: number, body?: object) => Response',
  },
  'docs/testing.md': {
    gateway: `import('mediagw/testing').MockGateway`,
  },
};

/** The prelude of one guide: the shared names, then the guide's own. */
export function preludeFor(preludes: Readonly<Record<string, Prelude>>, guide: string): Prelude {
  return { ...preludes[EVERY_GUIDE], ...preludes[guide] };
}

/**
 * The prelude names a snippet uses (as any identifier) but neither imports nor declares at its
 * top level. Inner declarations shadow the prelude's, so they need no special care.
 */
export function preludeNamesFor(code: string, prelude: Prelude): string[] {
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const declared = topLevelNames(source);
  const used = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) used.add(node.text);
    node.forEachChild(visit);
  };
  visit(source);
  return Object.keys(prelude).filter((name) => used.has(name) && !declared.has(name));
}

function topLevelNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const addBinding = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) addBinding(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause) {
      const clause = statement.importClause;
      if (clause.name) names.add(clause.name.text);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings))
        for (const el of bindings.elements) names.add(el.name.text);
    } else if (ts.isImportEqualsDeclaration(statement)) {
      names.add(statement.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) addBinding(declaration.name);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}
