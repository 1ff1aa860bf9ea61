// Generated from the OpenAPI document of the route table (internal/api/routes.go) by `make apidoc`
// (internal/api/cmd/apidoc/ts/generate.mjs, openapi-typescript); do not edit. TestStudioTypesCurrent fails when it
// is out of date.

export interface paths {
    "/api/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the organization's API keys (admins: every key; others: their own), never the keys themselves. */
        get: operations["aPIKeyList"];
        put?: never;
        /** Creates an API key bound to a project, or (without projectId, admins) to the whole organization; the key is shown once. */
        post: operations["aPIKeyCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revokes an API key (another user's: admins). */
        delete: operations["aPIKeyRevoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the organization's audit log, newest first (owners and admins). */
        get: operations["auditList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Changes the signed-in user's password and signs out every other session. */
        post: operations["passwordChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user, the active organization and project, and the CSRF token. */
        get: operations["session"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the signed-in user's sessions that are still valid, newest first. */
        get: operations["sessionList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Signs out one of the signed-in user's sessions. */
        delete: operations["sessionRevoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Signs in with email and password (sets the session cookie). */
        post: operations["signIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Signs out (revokes the session). */
        post: operations["signOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sign-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How this server signs people up, for a sign-up page to say before its form. */
        get: operations["signUpOptions"];
        put?: never;
        /** Creates a user and signs in: with the setup token (the first user), an invitation token, or (sign-up mode open) anyone. */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the organization's connections (credentials never shown). */
        get: operations["connectionList"];
        put?: never;
        /** Creates a connection to a provider account. */
        post: operations["connectionCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections/verify-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Checks provider credentials and lists the token's accounts. */
        post: operations["verifyToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deletes a connection no deployment uses. */
        delete: operations["connectionDelete"];
        options?: never;
        head?: never;
        /** Renames a connection or replaces its credentials. */
        patch: operations["connectionUpdate"];
        trace?: never;
    };
    "/api/deployments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists deployments of the active project. */
        get: operations["deploymentList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/env-vars": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists environment variables of the organization and the active project (secret values never shown). */
        get: operations["envVarList"];
        put?: never;
        /** Creates an environment variable or secret, for the organization or the active project. */
        post: operations["envVarCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/env-vars/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the project's workflows with the global environment variables each one reads. */
        get: operations["envVarUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/env-vars/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deletes an environment variable. */
        delete: operations["envVarDelete"];
        options?: never;
        head?: never;
        /** Renames an environment variable or changes its value. */
        patch: operations["envVarUpdate"];
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the events sent by type in the project, newest first, with the runs each went to. */
        get: operations["eventList"];
        put?: never;
        /** Sends an event by type to every run of the project waiting for it, or to one workflow's runs. */
        post: operations["eventSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event sent by type, with the runs it went to. */
        get: operations["eventGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/{eventId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends a stored event again, with its type, workflow and payload, to the runs waiting for it now. */
        post: operations["eventReplay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/import/awaitstep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Converts an AwaitStep IR (its examples and its exports, as they are) into an edgeflow IR, with a report; with `?create=true` also creates the workflow. */
        post: operations["importAwaitStep"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/import/n8n": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Converts an n8n workflow (as n8n exports it) into an IR, with a report of what became of each node; with `?create=true` also creates the workflow. */
        post: operations["importN8n"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accepts an invitation: the signed-in user joins its organization, which becomes the active one. */
        post: operations["invitationAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ir/compile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Compiles an IR to the TypeScript a version of it gets; stores nothing. */
        post: operations["iRCompile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ir/schema.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The JSON Schema (draft 2020-12) of the IR. */
        get: operations["iRSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ir/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Checks an IR as a version submit would, reporting every problem at once; stores nothing. */
        post: operations["iRValidate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The marketplace catalog with installation status, searched by words and filtered by category. */
        get: operations["marketplaceList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The categories of marketplace nodes with how many catalog nodes each has. */
        get: operations["marketplaceCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/install": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Installs a marketplace node (latest or a given version). */
        post: operations["marketplaceInstall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/installed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's installed nodes. */
        get: operations["marketplaceInstalled"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/uninstall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Uninstalls a node no deployed version uses. */
        post: operations["marketplaceUninstall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Moves an installed node to another version. */
        post: operations["marketplaceUpdate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/{nodeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One marketplace node with its versions, their changelogs and the workflows that use it. */
        get: operations["marketplaceGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Opens the session's stream of messages from the MCP server (Streamable HTTP transport). */
        get: operations["mCPStream"];
        put?: never;
        /** Sends the MCP server a JSON-RPC message of the Model Context Protocol (Streamable HTTP transport). */
        post: operations["mCPMessage"];
        /** Ends the MCP session named by `Mcp-Session-Id` (the transport answers 404 for a session that ended). */
        delete: operations["mCPEnd"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/mcp/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How an assistant reaches this server's MCP endpoint: what Studio's "Connect an assistant" page shows. */
        get: operations["mCPConnect"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Node definitions: the builtins and the organization's installed marketplace nodes. */
        get: operations["nodeList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/nodes/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Node templates for editors. */
        get: operations["nodeTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/nodes/{nodeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One node definition. */
        get: operations["nodeGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This API's OpenAPI 3.1 document. */
        get: operations["openAPI"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the signed-in user's organizations with the user's role in each. */
        get: operations["organizationList"];
        put?: never;
        /** Creates an organization the caller owns, with a first project. */
        post: operations["organizationCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organizationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deletes an organization with its projects, workflows, keys and records. */
        delete: operations["organizationDelete"];
        options?: never;
        head?: never;
        /** Renames an organization or changes its settings (`runRetentionDays`). */
        patch: operations["organizationUpdate"];
        trace?: never;
    };
    "/api/organizations/{organizationId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the organization's invitations (never their tokens). */
        get: operations["invitationList"];
        put?: never;
        /** Invites an email address to the organization; the token is shown once. */
        post: operations["invitationCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organizationId}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revokes an invitation. */
        delete: operations["invitationRevoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organizationId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the organization's members with their roles. */
        get: operations["memberList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organizationId}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Removes a member (their API keys of the organization are revoked); a member removing itself leaves. */
        delete: operations["memberRemove"];
        options?: never;
        head?: never;
        /** Changes a member's role; the member's API keys shrink with it at once. */
        patch: operations["memberUpdate"];
        trace?: never;
    };
    "/api/organizations/{organizationId}/transfer-ownership": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Makes another member the owner; the former owner becomes an admin. */
        post: operations["transferOwnership"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists projects of the active organization. */
        get: operations["projectList"];
        put?: never;
        /** Creates a project in the active organization. */
        post: operations["projectCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deletes an empty project of the organization (an API key: not its own). */
        delete: operations["projectDelete"];
        options?: never;
        head?: never;
        /** Renames or describes a project of the organization. */
        patch: operations["projectUpdate"];
        trace?: never;
    };
    "/api/projects/{id}/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists a project's environments by name. */
        get: operations["environmentList"];
        put?: never;
        /** Creates an environment of a project, bound to a connection the project may use. */
        post: operations["environmentCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{id}/environments/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deletes an environment other than production; the deployments made in it stay (take them down to stop them). */
        delete: operations["environmentDelete"];
        options?: never;
        head?: never;
        /** Binds an environment to another connection (or to none) or changes its protection. */
        patch: operations["environmentUpdate"];
        trace?: never;
    };
    "/api/resources/d1/databases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the connection's D1 databases. */
        get: operations["d1Databases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/resources/d1/databases/{databaseId}/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Runs a SQL statement on a D1 database. */
        post: operations["d1Query"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/resources/kv/namespaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the connection's KV namespaces. */
        get: operations["kVNamespaces"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/resources/kv/namespaces/{namespaceId}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists keys of a KV namespace. */
        get: operations["kVKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/resources/kv/namespaces/{namespaceId}/values/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reads one KV value. */
        get: operations["kVValue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/resources/r2/buckets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the connection's R2 buckets. */
        get: operations["r2Buckets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/resources/r2/buckets/{bucketName}/objects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists objects of an R2 bucket. */
        get: operations["r2Objects"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/resources/r2/buckets/{bucketName}/objects/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Downloads one object of an R2 bucket. */
        get: operations["r2Object"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Finds runs of the active project, newest first. */
        get: operations["runList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restarts, replays, terminates or deletes every run of the project that a filter matches, in the background. */
        post: operations["bulkStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/bulk/{bulkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A bulk job's state and progress. */
        get: operations["bulkGet"];
        put?: never;
        post?: never;
        /** Cancels a running bulk job: the runs it has not reached are left alone. */
        delete: operations["bulkCancel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Streams the state changes of the active project's runs as Server-Sent Events. */
        get: operations["runStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sums the token usage of the runs the run search's filters select, per workflow. */
        get: operations["runUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One run of the active project, by its id alone: also a run kept after its workflow was deleted. */
        get: operations["projectRunGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/session/active": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Changes the session's active organization and project. */
        put: operations["sessionActive"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the active project's webhooks (never their secrets). */
        get: operations["webhookList"];
        put?: never;
        /** Creates a webhook of the active project; its signing secret is shown once. */
        post: operations["webhookCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reads a webhook (never its secret). */
        get: operations["webhookGet"];
        put?: never;
        post?: never;
        /** Deletes a webhook with its deliveries. */
        delete: operations["webhookDelete"];
        options?: never;
        head?: never;
        /** Changes a webhook's URL or events. */
        patch: operations["webhookUpdate"];
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists a webhook's deliveries with their attempts. */
        get: operations["webhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends a delivery's message again, as a new delivery. */
        post: operations["webhookRedeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replaces a webhook's signing secret; the new one is shown once. */
        post: operations["webhookRotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the caller is: the user, the API key (when a key calls), the organization with the caller's role, and the project requests act in. */
        get: operations["whoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists workflows and functions of the active project, newest first. */
        get: operations["workflowList"];
        put?: never;
        /** Creates a workflow or a function (kind script). */
        post: operations["workflowCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One workflow. */
        get: operations["workflowGet"];
        put?: never;
        post?: never;
        /** Deletes the workflow, taking its deployments down first (?force=true skips that), with its runs (?runs=delete, the default) or keeping them (?runs=keep). Deleted runs' provider instances are deleted too, in the background (docs/runs.md). */
        delete: operations["workflowDelete"];
        options?: never;
        head?: never;
        /** Updates name, description, env vars, trigger code, dependencies or deploy config. */
        patch: operations["workflowUpdate"];
        trace?: never;
    };
    "/api/workflows/{id}/full": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workflow with its current version (or ?version=), all version summaries and the active deployment. */
        get: operations["workflowFull"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{id}/move": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Moves the workflow to another project of the organization. */
        patch: operations["workflowMove"];
        trace?: never;
    };
    "/api/workflows/{workflowId}/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deploys a version (default the current one) to a connection. */
        post: operations["deploy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/deploy-plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tells what deploying a version to a connection would do to the runs in flight there. */
        get: operations["deployPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/deploy-stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deploys like /deploy, reporting each stage as Server-Sent Events. */
        post: operations["deployStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/deployments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the workflow's deployments with the state of each. */
        get: operations["workflowDeploymentList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/estimate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Estimates what a month of runs of a version costs under Cloudflare's per-step pricing. */
        get: operations["estimate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/invoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Calls a deployed function's URL with a method, path, JSON body and headers, and answers the function's answer. */
        post: operations["invoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/pinned-outputs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workflow's pinned outputs: per node, the output a test run answers instead of running the node. */
        get: operations["pinnedOutputsGet"];
        /** Replaces the workflow's pinned outputs (`{}` unpins every node). */
        put: operations["pinnedOutputsPut"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/promote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deploys to one environment exactly the version active in another. */
        post: operations["promote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deploys again the version that was active on a connection before the current one. */
        post: operations["rollback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the workflow's runs, newest first. */
        get: operations["workflowRunList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One run, refreshed from the provider while not final. */
        get: operations["runGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs/{runId}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run's console lines and exceptions; streamed as Server-Sent Events while it is active. */
        get: operations["runLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs/{runId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pauses a running run. */
        post: operations["runPause"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs/{runId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replays a run with other params: a new run on the run's connection, from the start or from a step. */
        post: operations["runReplay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs/{runId}/restart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restarts a run from a step: a new run that replays the steps before `fromStep` (default), or the run's own instance in place. */
        post: operations["runRestart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs/{runId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resumes a manually paused run. */
        post: operations["runResume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs/{runId}/steps/{nodeId}/output": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The full output of one step of a run, per attempt, read from the provider's step endpoint. */
        get: operations["runStepOutput"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs/{runId}/terminate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Terminates a running or paused run. */
        post: operations["runTerminate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs/{runId}/worker-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the local edge keeps of the run's worker around the run (every invocation, not only the run's). */
        get: operations["runWorkerLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/signed-trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Starts a run from a request signed with the workflow's trigger secret (its public trigger), under its flow control. */
        post: operations["signedTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/takedown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deletes the deployed worker and Workflow from a connection or an environment. */
        post: operations["takedown"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Runs an IR of the workflow, saved or not (the editor's current one), once on the local edge and answers how it went. */
        post: operations["draftTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Starts a run with params, or delivers an event to a waiting run. */
        post: operations["trigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/trigger-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signing secret of the workflow's public trigger on a connection (deployConfig.publicTrigger). */
        get: operations["triggerSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/trigger/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Starts 1 to 100 runs at once, through the provider's batch create. */
        post: operations["triggerBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists version summaries, highest number first. */
        get: operations["versionList"];
        put?: never;
        /** Validates, compiles and stores an IR as the next version. */
        post: operations["versionSubmit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/versions/{versionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One version with its IR and generated code. */
        get: operations["versionGet"];
        put?: never;
        post?: never;
        /** Deletes a version that is not locked, current or deployed. */
        delete: operations["versionDelete"];
        options?: never;
        head?: never;
        /** Locks or unlocks a version. */
        patch: operations["versionUpdate"];
        trace?: never;
    };
    "/api/workflows/{workflowId}/versions/{versionId}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Downloads the version as a plain Cloudflare Workers project that `wrangler deploy` deploys without edgeflow (`?format=wrangler`). */
        get: operations["versionExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/versions/{versionId}/revert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Creates a new version holding this version's IR. */
        post: operations["versionRevert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/versions/{versionId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Runs the version once on the local edge, without a connection or a deployment, and answers how it went. */
        post: operations["versionTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Answers 200 while the process is up. */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Metrics in the Prometheus text format. */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Answers 200 when the database and the edge answer, 503 naming the dependency that is down. */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        APIKey: {
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string | null;
            id: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            name: string;
            organizationId: string;
            prefix: string;
            projectId: string | null;
            /** Format: date-time */
            revokedAt: string | null;
            /** @enum {string} */
            scope: "organization" | "project";
            scopes: components["schemas"]["Scope"][];
            userId: string;
        };
        APIKeyCreated: {
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string | null;
            id: string;
            key: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            name: string;
            organizationId: string;
            prefix: string;
            projectId: string | null;
            /** Format: date-time */
            revokedAt: string | null;
            /** @enum {string} */
            scope: "organization" | "project";
            scopes: components["schemas"]["Scope"][];
            userId: string;
        };
        Account: {
            id: string;
            name: string;
        };
        Approximated: {
            n8nNode?: string;
            node?: string;
            what: string;
        };
        AuditActor: {
            id: string;
            /** @enum {string} */
            type: "user" | "key";
        };
        AuditEntry: {
            action: string;
            actor: components["schemas"]["AuditActor"];
            details?: unknown;
            id: string;
            organizationId: string;
            outcome: number;
            projectId: string;
            requestId: string;
            target: components["schemas"]["AuditTarget"];
            /** Format: date-time */
            time: string;
        };
        AuditTarget: {
            id: string;
            type: string;
        };
        BatchCreated: {
            id: string;
            index: number;
            instanceId: string;
            statusDetail?: string;
        };
        BatchError: {
            code: string;
            index: number;
            message: string;
            retryAfter?: number;
        };
        BatchTriggerResult: {
            created: components["schemas"]["BatchCreated"][];
            errors: components["schemas"]["BatchError"][];
        };
        BulkFailure: {
            error: string;
            runId: string;
        };
        BulkFilter: {
            /** Format: date-time */
            from?: string;
            q?: string;
            runIds?: string[];
            status?: string;
            /** Format: date-time */
            to?: string;
            versionId?: string;
            workflowId?: string;
        };
        BulkJob: {
            action: string;
            /** Format: date-time */
            createdAt: string;
            done: number;
            /** Format: date-time */
            endedAt: string | null;
            failed: components["schemas"]["BulkFailure"][];
            failedCount: number;
            filter: components["schemas"]["BulkFilter"];
            fromStep?: string;
            id: string;
            matched: number;
            projectId: string;
            state: string;
            /** Format: date-time */
            updatedAt: string;
            version?: string;
        };
        BulkStarted: {
            dryRun?: boolean;
            id?: string;
            matched: number;
            runIds?: string[];
        };
        CatalogNode: {
            author: string;
            category: string;
            description: string;
            id: string;
            installed: boolean;
            installedVersion: string | null;
            latest: string;
            license: string;
            name: string;
            tags: string[];
            updateAvailable: boolean;
            versions: components["schemas"]["CatalogVersion"][];
        };
        CatalogVersion: {
            changelog?: string;
            checksum: string;
            version: string;
        };
        CategoryCount: {
            name: string;
            nodes: number;
        };
        CategoryList: {
            categories: components["schemas"]["CategoryCount"][];
        };
        ConfigField: {
            default?: unknown;
            description?: string;
            envVarName?: string;
            label: string;
            options?: string[];
            placeholder?: string;
            required?: boolean;
            schema?: {
                [key: string]: unknown;
            };
            type: string;
            validation?: components["schemas"]["ConfigValidation"];
        };
        ConfigValidation: {
            format?: string;
            integer?: boolean;
            max?: number;
            maxLength?: number;
            min?: number;
            minLength?: number;
            pattern?: string;
        };
        Connection: {
            accountId: string;
            /** Format: date-time */
            createdAt: string;
            credentials: {
                [key: string]: string;
            };
            id: string;
            limits?: components["schemas"]["PlanLimits"];
            name: string;
            organizationId: string;
            plan: string;
            projectId?: string;
            /** @enum {string} */
            provider: "cloudflare" | "local";
            /** @enum {string} */
            scope: "organization" | "project";
            /** Format: date-time */
            updatedAt: string;
        };
        Converted: {
            n8nNode?: string;
            node?: string;
            nodeIds: string[];
        };
        D1Database: {
            createdAt?: string;
            fileSize: number;
            id: string;
            name: string;
            numTables: number;
        };
        D1Meta: {
            changes: number;
            duration: number;
            lastRowId: number;
            rowsRead: number;
            rowsWritten: number;
        };
        D1Result: {
            columns: string[];
            meta: components["schemas"]["D1Meta"];
            rows: unknown[][];
        };
        DeletedWorkflow: {
            /** Format: date-time */
            deletedAt: string;
            name: string;
        };
        DeliveryAttempt: {
            /** Format: date-time */
            at: string;
            durationMs: number;
            error?: string;
            responseBody?: string;
            responseStatus: number;
        };
        DeployConfig: {
            concurrency?: number;
            publicTrigger?: boolean;
            rateLimit?: components["schemas"]["RateLimit"];
            retention?: components["schemas"]["Retention"];
            route?: components["schemas"]["WorkerRoute"];
        };
        DeployPlan: {
            activeVersionId: string;
            changes: components["schemas"]["PlanChange"][];
            compatible: boolean;
            connectionId: string;
            inFlight: components["schemas"]["PlanInFlight"];
            number: number;
            reasons: string[];
            versionId: string;
            workflowId: string;
        };
        DeployProgress: {
            message: string;
            progress: number;
            /** @enum {string} */
            stage: "INITIALIZING" | "GENERATING_CODE" | "CODE_READY" | "DETECTING_BINDINGS" | "BINDINGS_READY" | "CREATING_WORKER" | "DEPLOYING" | "WORKER_DEPLOYED" | "UPDATING_WORKFLOW" | "COMPLETED";
        };
        DeployResult: {
            connectionId: string;
            /** Format: date-time */
            createdAt: string;
            createdBy?: string;
            deploymentId: string;
            environment?: string;
            id: string;
            inFlight?: number;
            projectId: string;
            /** Format: date-time */
            removedAt?: string;
            scriptName: string;
            state?: string;
            /** @enum {string} */
            status: "active" | "replaced" | "removed";
            success: boolean;
            url: string;
            versionId: string;
            versionNumber?: number;
            workflowId: string;
            workflowName?: string;
        };
        Deployment: {
            connectionId: string;
            /** Format: date-time */
            createdAt: string;
            createdBy?: string;
            environment?: string;
            id: string;
            inFlight?: number;
            projectId: string;
            /** Format: date-time */
            removedAt?: string;
            scriptName: string;
            state?: string;
            /** @enum {string} */
            status: "active" | "replaced" | "removed";
            url: string;
            versionId: string;
            versionNumber?: number;
            workflowId: string;
            workflowName?: string;
        };
        EnvDiff: {
            extra: string[];
            missing: string[];
        };
        EnvVar: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            isSecret: boolean;
            name: string;
            onlyEnvironments?: boolean;
            organizationId: string;
            projectId?: string;
            /** @enum {string} */
            scope: "organization" | "project";
            /** Format: date-time */
            updatedAt: string;
            value: string;
            values?: {
                [key: string]: string;
            };
        };
        EnvVarUsage: {
            /** @enum {string} */
            kind: "workflow" | "script";
            uses: components["schemas"]["EnvVarUse"][];
            workflowId: string;
            workflowName: string;
        };
        EnvVarUse: {
            as?: string;
            name: string;
            /** @enum {string} */
            via: "reference" | "declared";
        };
        Environment: {
            connectionId: string;
            /** Format: date-time */
            createdAt: string;
            name: string;
            projectId: string;
            protected: boolean;
            /** Format: date-time */
            updatedAt: string;
        };
        Error: {
            /** @description What went wrong, for programs (docs/api.md). */
            code: string;
            /** @description Per-field or per-IR-problem details, each with its path. */
            details?: Record<string, unknown>[];
            /** @description What went wrong, for people. */
            error: string;
            requestId?: string;
        };
        Estimate: {
            billedStepsPerRun: components["schemas"]["StepRange"];
            monthly: components["schemas"]["MonthlyCost"];
            plan: string;
            pricing: components["schemas"]["PricingSource"];
            runsPerMonth: number;
            stepsPerRun: components["schemas"]["StepRange"];
            versionId: string;
            warnings: components["schemas"]["Warning"][];
        };
        Health: {
            /** @enum {string} */
            status: "ok";
        };
        /**
         * edgeflow artifact IR
         * @description The shape of a workflow or function IR (docs/ir.md). The server also applies the semantic rules listed there.
         */
        IR: {
            edges: components["schemas"]["IREdge"][];
            entryNodeId: string;
            /**
             * @description absent means workflow
             * @default workflow
             * @enum {unknown}
             */
            kind?: "workflow" | "script";
            metadata: components["schemas"]["IRMetadata"];
            nodes: components["schemas"]["IRNode"][];
            /** @description sticky notes on the canvas: text for people, never executed */
            notes?: components["schemas"]["IRNote"][];
            /** @description the node whose value is the run's output; absent: the last node that completed on the path taken */
            outputNodeId?: string;
            trigger?: components["schemas"]["IRTrigger"];
        };
        IRCompilation: {
            code: string;
        };
        /** @description seconds, or a duration string such as "30 seconds" or "2 hours" */
        IRDuration: number | string;
        IREdge: {
            id: string;
            label?: string;
            source: string;
            target: string;
        };
        IRMetadata: {
            /** @description ISO 8601; assigned by the server (the submission time) when omitted */
            createdAt?: string;
            description?: string;
            name: string;
            /** @description ISO 8601; assigned by the server (the submission time) when omitted */
            updatedAt?: string;
            /** @description assigned by the server: the version's number */
            version?: number;
        };
        IRNode: {
            config?: components["schemas"]["IRStepConfig"];
            /** @description checked against the node definition's config schema */
            data: Record<string, unknown>;
            /** @description slug: letters, digits, - and _, starting with a letter, digit or _, at most 100 characters */
            id: string;
            /** @description 1 to 256 characters */
            name: string;
            /**
             * @default {
             *       "x": 0,
             *       "y": 0
             *     }
             */
            position?: {
                x: number;
                y: number;
            };
            /**
             * @description execution provider: cloudflare
             * @default cloudflare
             */
            provider?: string;
            /** @description a builtin node type or an installed marketplace node id */
            type: string;
            /** @description semver of the node definition; when omitted 1.0.0 for a builtin type, the installed version for a marketplace node */
            version?: string;
        };
        IRNote: {
            /** @description on the canvas; absent: the editor's default */
            height?: number;
            /** @description unique among the notes */
            id: string;
            /**
             * @default {
             *       "x": 0,
             *       "y": 0
             *     }
             */
            position?: {
                x: number;
                y: number;
            };
            /** @description plain text, at most 10,000 characters */
            text: string;
            /** @description on the canvas; absent: the editor's default */
            width?: number;
        };
        IRProblem: {
            column?: number;
            field?: string;
            line?: number;
            message: string;
            nodeId?: string;
            path: string;
            rule: string;
        };
        IRRetries: {
            /** @enum {unknown} */
            backoff?: "constant" | "linear" | "exponential";
            /** @description a duration, or "retry-after" (http_request and marketplace nodes): the failed response's Retry-After */
            delay: components["schemas"]["IRDuration"];
            limit: number;
            /** @description with delay "retry-after": the longest wait (default 1 hour) */
            maxDelay?: components["schemas"]["IRDuration"];
        };
        IRStepConfig: {
            retries?: components["schemas"]["IRRetries"];
            /** @description saga rollback: code run when a later step fails terminally; it receives output, error and ctx */
            rollback?: {
                code: string;
                retries?: components["schemas"]["IRRetries"];
                timeout?: components["schemas"]["IRDuration"];
            };
            sensitive?: boolean;
            timeout?: components["schemas"]["IRDuration"];
        };
        IRTrigger: {
            eventType?: string;
            /** @description 5-field cron expression */
            expression?: string;
            /** @enum {unknown} */
            method?: "GET" | "POST" | "PUT" | "DELETE";
            path?: string;
            /** @enum {unknown} */
            type: "manual" | "http" | "cron" | "event";
        } & (unknown & unknown);
        IRValidation: {
            errors: components["schemas"]["IRProblem"][];
            valid: boolean;
        };
        ImportEnvVar: {
            name: string;
            secret: boolean;
            why: string;
        };
        ImportReport: {
            approximated: components["schemas"]["Approximated"][];
            converted: components["schemas"]["Converted"][];
            envVars: components["schemas"]["ImportEnvVar"][];
            marketplace: string[];
            unsupported: components["schemas"]["Unsupported"][];
        };
        ImportResult: {
            ir: components["schemas"]["IR"];
            report: components["schemas"]["ImportReport"];
            triggerCode?: string;
            version?: components["schemas"]["Version"];
            workflow?: components["schemas"]["Workflow"];
        };
        Installation: {
            category: string;
            checksum: string;
            description: string;
            id: string;
            /** Format: date-time */
            installedAt: string;
            installedBy?: string;
            latest?: string;
            name: string;
            nodeId: string;
            updateAvailable: boolean;
            /** Format: date-time */
            updatedAt: string;
            version: string;
        };
        InstallationDetails: {
            category: string;
            checksum: string;
            definition: unknown;
            description: string;
            id: string;
            /** Format: date-time */
            installedAt: string;
            installedBy?: string;
            latest?: string;
            name: string;
            nodeId: string;
            updateAvailable: boolean;
            /** Format: date-time */
            updatedAt: string;
            version: string;
        };
        Invitation: {
            /** Format: date-time */
            acceptedAt: string | null;
            acceptedBy: string;
            /** Format: date-time */
            createdAt: string;
            email: string;
            /** Format: date-time */
            expiresAt: string;
            id: string;
            invitedBy: string;
            organizationId: string;
            /** Format: date-time */
            revokedAt: string | null;
            role: components["schemas"]["Role"];
            /** @enum {string} */
            status: "pending" | "accepted" | "revoked" | "expired";
        };
        InvitationCreated: {
            acceptUrl: string;
            /** Format: date-time */
            acceptedAt: string | null;
            acceptedBy: string;
            /** Format: date-time */
            createdAt: string;
            email: string;
            /** Format: date-time */
            expiresAt: string;
            id: string;
            invitedBy: string;
            organizationId: string;
            /** Format: date-time */
            revokedAt: string | null;
            role: components["schemas"]["Role"];
            /** @enum {string} */
            status: "pending" | "accepted" | "revoked" | "expired";
            token: string;
        };
        InvokeResult: {
            body: string;
            bodyTruncated: boolean;
            durationMs: number;
            headers: {
                [key: string]: string;
            };
            status: number;
        };
        KVKey: {
            expiration?: number;
            metadata?: unknown;
            name: string;
        };
        KVNamespace: {
            id: string;
            title: string;
        };
        KVValue: {
            /** @enum {string} */
            encoding: "utf-8" | "base64";
            key: string;
            size: number;
            value: string;
        };
        LogLine: {
            level: string;
            message: string;
            /** Format: date-time */
            timestamp: string;
        };
        MCPClientConfig: {
            client: string;
            command?: string;
            config?: {
                [key: string]: unknown;
            };
            file?: string;
            transport: string;
        };
        MCPConnect: {
            clients: components["schemas"]["MCPClientConfig"][];
            headers: {
                [key: string]: string;
            };
            stdio: components["schemas"]["MCPStdioCommand"];
            url: string;
        };
        MCPError: {
            code: number;
            data?: unknown;
            message: string;
        };
        MCPMessage: {
            error?: components["schemas"]["MCPError"];
            id?: unknown;
            jsonrpc: string;
            method?: string;
            params?: unknown;
            result?: unknown;
        };
        MCPStdioCommand: {
            args: string[];
            command: string;
            env: {
                [key: string]: string;
            };
        };
        MarketplaceNode: {
            author: string;
            category: string;
            definition: unknown;
            description: string;
            id: string;
            installation: components["schemas"]["InstallationDetails"] | null;
            installed: boolean;
            installedVersion: string | null;
            latest: string;
            license: string;
            name: string;
            tags: string[];
            updateAvailable: boolean;
            usedBy: components["schemas"]["WorkflowRef"][];
            versions: components["schemas"]["CatalogVersion"][];
        };
        Member: {
            /** Format: date-time */
            createdAt: string;
            email: string;
            name: string;
            role: components["schemas"]["Role"];
            userId: string;
        };
        MonthlyCost: {
            billable: number;
            included: number;
            steps: number;
            usd: number;
        };
        NodeDefinition: {
            allowedInFunctions: boolean;
            author?: string;
            builtin: boolean;
            category: string;
            changelog?: string;
            configSchema: {
                [key: string]: components["schemas"]["ConfigField"];
            };
            dependencies?: {
                [key: string]: string;
            };
            description: string;
            id: string;
            license?: string;
            name: string;
            outputSchema: {
                [key: string]: components["schemas"]["OutputField"];
            };
            tags?: string[];
            version: string;
        };
        NodeTemplate: {
            builtin: boolean;
            checksum?: string;
            cloudflare?: string;
            defaults: {
                [key: string]: unknown;
            };
            dependencies?: {
                [key: string]: string;
            };
            required: string[];
            secretEnvVars: string[];
            template?: string;
            version: string;
        };
        OrganizationCreated: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            name: string;
            project: components["schemas"]["Project"];
            role: components["schemas"]["Role"];
            slug: string;
        };
        OrganizationList: {
            data: components["schemas"]["OrganizationMembership"][];
        };
        OrganizationMembership: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            name: string;
            role: components["schemas"]["Role"];
            slug: string;
        };
        OrganizationUpdated: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            name: string;
            role: components["schemas"]["Role"];
            runRetentionDays: number;
            slug: string;
        };
        OutputField: {
            description?: string;
            items?: components["schemas"]["OutputField"];
            nullable?: boolean;
            properties?: {
                [key: string]: components["schemas"]["OutputField"];
            };
            type: string;
        };
        PinnedOutputs: {
            outputs: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            updatedAt: string | null;
            updatedBy: string;
        };
        PlanChange: {
            detail: string;
            kind: string;
            nodeId: string;
            step: string;
        };
        PlanInFlight: {
            byVersion: components["schemas"]["PlanVersionCount"][];
            total: number;
        };
        PlanLimits: {
            cpuMs?: number;
            steps?: number;
        };
        PlanVersionCount: {
            count: number;
            number: number;
            versionId: string;
        };
        PricingSource: {
            date: string;
            source: string;
        };
        Project: {
            /** Format: date-time */
            createdAt: string;
            description: string;
            id: string;
            name: string;
            organizationId: string;
            slug: string;
            /** Format: date-time */
            updatedAt: string;
        };
        PromoteResult: {
            deployment: components["schemas"]["Deployment"];
            envDiff: components["schemas"]["EnvDiff"];
        };
        R2Bucket: {
            createdAt?: string;
            name: string;
        };
        R2Object: {
            contentType?: string;
            etag?: string;
            key: string;
            lastModified?: string;
            size: number;
        };
        R2ObjectList: {
            data: components["schemas"]["R2Object"][];
            delimitedPrefixes: string[];
            nextCursor: string | null;
        };
        RateLimit: {
            key?: string;
            limit: number;
            period: string;
        };
        Readiness: {
            code?: string;
            /** @enum {string} */
            database: "ok";
            details?: unknown[];
            /** @enum {string} */
            edge: "ok" | "off";
            error?: string;
            requestId?: string;
            /** @enum {string} */
            status: "ok";
        };
        Retention: {
            error?: string;
            success?: string;
        };
        /** @enum {string} */
        Role: "owner" | "admin" | "member" | "viewer";
        Run: {
            connectionId: string;
            /** Format: date-time */
            createdAt: string;
            deletedWorkflow?: components["schemas"]["DeletedWorkflow"];
            deploymentId: string;
            /** Format: date-time */
            endedAt: string | null;
            environment?: string;
            error?: string;
            fromStep?: string;
            id: string;
            instanceId: string;
            output?: unknown;
            params?: unknown;
            paramsChanged?: boolean;
            projectId: string;
            replayOf?: string;
            restartOf?: string;
            /** Format: date-time */
            startedAt: string | null;
            /** @enum {string} */
            status: "queued" | "running" | "paused" | "complete" | "errored" | "terminated";
            statusDetail?: string;
            steps?: components["schemas"]["RunStep"][];
            traceId?: string;
            traceUrl?: string;
            /** Format: date-time */
            updatedAt: string;
            usage?: components["schemas"]["TokenUsage"];
            versionId: string;
            workflowId: string;
        };
        RunEvent: {
            error?: string;
            id: string;
            projectId: string;
            rollback?: string;
            /** @enum {string} */
            status: "queued" | "running" | "paused" | "complete" | "errored" | "terminated";
            statusDetail?: string;
            /** Format: date-time */
            updatedAt: string;
            workflowId: string;
        };
        RunLogsEnd: {
            available?: boolean;
            final?: boolean;
            reason?: string;
            /** @enum {string} */
            status: "queued" | "running" | "paused" | "complete" | "errored" | "terminated";
        };
        RunLogsView: {
            available: boolean;
            data: components["schemas"]["LogLine"][];
            dropped: number;
            final: boolean;
            reason?: string;
            /** @enum {string} */
            status: "queued" | "running" | "paused" | "complete" | "errored" | "terminated";
        };
        RunStep: {
            attempts: number;
            /** Format: date-time */
            endedAt: string | null;
            error: components["schemas"]["StepError"] | null;
            name: string;
            nodeId: string;
            output: unknown;
            outputTruncated: boolean;
            sensitive?: boolean;
            /** Format: date-time */
            startedAt: string | null;
            /** @enum {string} */
            state: "running" | "retrying" | "waiting" | "complete" | "errored" | "replayed" | "terminated" | "mocked" | "rolled_back" | "rollback_failed";
            type: string;
        };
        RunUsage: {
            inputTokens: number;
            outputTokens: number;
            partial: boolean;
            runs: number;
            workflows: components["schemas"]["WorkflowUsage"][];
        };
        /** @enum {string} */
        Scope: "read" | "write" | "deploy";
        SentEvent: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            payload: unknown;
            projectId: string;
            replayOf?: string;
            runs: components["schemas"]["SentEventRun"][];
            truncated?: boolean;
            type: string;
            workflowId?: string;
        };
        SentEventRun: {
            error?: string;
            runId: string;
            state: string;
            workflowId: string;
        };
        Session: {
            /** Format: date-time */
            createdAt: string;
            current: boolean;
            /** Format: date-time */
            expiresAt: string;
            id: string;
            ip: string;
            /** Format: date-time */
            lastSeenAt: string | null;
            userAgent: string;
        };
        SignUpOptions: {
            firstUser: boolean;
            mode: string;
        };
        SignedIn: {
            activeOrganizationId: string;
            activeProjectId: string;
            csrfToken: string;
            /** Format: date-time */
            expiresAt: string;
            organizations: components["schemas"]["OrganizationMembership"][];
            user: components["schemas"]["User"];
        };
        StepError: {
            message: string;
            name: string;
        };
        StepOutput: {
            attempt?: number;
            error?: components["schemas"]["StepError"];
            name: string;
            nodeId: string;
            output: unknown;
            runId: string;
            source: string;
            state: string;
        };
        StepRange: {
            max: number | null;
            min: number;
        };
        StoredVersion: {
            code?: string;
            /** Format: date-time */
            createdAt: string;
            createdBy?: string;
            id: string;
            ir?: components["schemas"]["IR"];
            locked: boolean;
            version: number;
            workflowId: string;
        };
        StreamError: {
            code: string;
            details: unknown;
            error: string;
            requestId: string;
            status: number;
        };
        TestLogLine: {
            level: string;
            message: string;
            /** Format: date-time */
            timestamp: string;
        };
        TestResult: {
            durationMs: number;
            error: string | null;
            logs: components["schemas"]["TestLogLine"][];
            output: unknown;
            pinned?: string[];
            status: string;
            steps: components["schemas"]["RunStep"][];
        };
        TokenUsage: {
            inputTokens: number;
            outputTokens: number;
        };
        TriggerResult: {
            eventType?: string;
            id: string;
            instanceId: string;
            status: string;
            statusDetail?: string;
        };
        TriggerSecret: {
            secret: string;
            signature: string;
            signatureHeader: string;
            timestampHeader: string;
            url: string;
            viaEdgeflow: boolean;
            windowSeconds: number;
        };
        UninstallResult: {
            ok: boolean;
        };
        Unsupported: {
            n8nNode?: string;
            node?: string;
            nodeIds?: string[];
            reason: string;
            type: string;
        };
        User: {
            /** Format: date-time */
            createdAt: string;
            email: string;
            id: string;
            name: string;
        };
        VerifyResult: {
            accounts: components["schemas"]["Account"][];
            valid: boolean;
        };
        Version: {
            code?: string;
            /** Format: date-time */
            createdAt: string;
            createdBy?: string;
            id: string;
            ir?: components["schemas"]["IR"];
            locked: boolean;
            nodeTypes: string[];
            version: number;
            warnings?: components["schemas"]["Warning"][];
            workflowId: string;
        };
        VersionDetail: {
            code: string;
            /** Format: date-time */
            createdAt: string;
            createdBy?: string;
            id: string;
            ir: components["schemas"]["IR"];
            locked: boolean;
            nodeTypes: string[];
            version: number;
            warnings?: components["schemas"]["Warning"][];
            workflowId: string;
        };
        Warning: {
            message: string;
            nodeId?: string;
            path: string;
        };
        Webhook: {
            /** Format: date-time */
            createdAt: string;
            events: ("run.started" | "run.completed" | "run.errored" | "run.waiting" | "run.terminated" | "run.stuck" | "run.rolled_back" | "deploy.completed" | "deploy.failed")[];
            id: string;
            organizationId: string;
            projectId: string;
            /** Format: date-time */
            updatedAt: string;
            url: string;
        };
        WebhookDelivery: {
            attempts: components["schemas"]["DeliveryAttempt"][];
            /** Format: date-time */
            createdAt: string;
            /** @enum {string} */
            eventType: "run.started" | "run.completed" | "run.errored" | "run.waiting" | "run.terminated" | "run.stuck" | "run.rolled_back" | "deploy.completed" | "deploy.failed";
            id: string;
            messageId: string;
            /** Format: date-time */
            nextAttemptAt: string | null;
            payload: unknown;
            projectId: string;
            redeliveryOf?: string;
            responseStatus: number;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            /** Format: date-time */
            updatedAt: string;
            webhookId: string;
        };
        WebhookWithSecret: {
            /** Format: date-time */
            createdAt: string;
            events: ("run.started" | "run.completed" | "run.errored" | "run.waiting" | "run.terminated" | "run.stuck" | "run.rolled_back" | "deploy.completed" | "deploy.failed")[];
            id: string;
            organizationId: string;
            projectId: string;
            secret: string;
            /** Format: date-time */
            updatedAt: string;
            url: string;
        };
        Whoami: {
            apiKey: components["schemas"]["WhoamiKey"] | null;
            organization: components["schemas"]["WhoamiOrganization"] | null;
            project: components["schemas"]["WhoamiProject"] | null;
            user: components["schemas"]["WhoamiUser"];
        };
        WhoamiKey: {
            /** Format: date-time */
            expiresAt: string | null;
            id: string;
            name: string;
            prefix: string;
            /** @enum {string} */
            scope: "organization" | "project";
            scopes: components["schemas"]["Scope"][];
        };
        WhoamiOrganization: {
            id: string;
            name: string;
            role: components["schemas"]["Role"];
            slug: string;
        };
        WhoamiProject: {
            id: string;
            name: string;
            slug: string;
        };
        WhoamiUser: {
            email: string;
            id: string;
            name: string;
        };
        WorkerLogLine: {
            instanceId: string;
            level: string;
            message: string;
            /** Format: date-time */
            timestamp: string;
        };
        WorkerLogsView: {
            data: components["schemas"]["WorkerLogLine"][];
            dropped: number;
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
        };
        WorkerRoute: {
            pattern: string;
            zoneName: string;
        };
        Workflow: {
            activeVersionId: string;
            /** Format: date-time */
            createdAt: string;
            currentVersionId: string;
            dependencies: {
                [key: string]: string;
            };
            deployConfig: components["schemas"]["DeployConfig"] | null;
            description: string;
            envVars: components["schemas"]["WorkflowEnvVar"][];
            id: string;
            /** @enum {string} */
            kind: "workflow" | "script";
            name: string;
            organizationId: string;
            projectId: string;
            triggerCode: string;
            /** Format: date-time */
            updatedAt: string;
        };
        WorkflowEnvVar: {
            isSecret: boolean;
            name: string;
            onlyEnvironments?: boolean;
            value: string;
            values?: {
                [key: string]: string;
            };
        };
        WorkflowFull: {
            activeDeployment: components["schemas"]["Deployment"] | null;
            currentVersion: components["schemas"]["StoredVersion"] | null;
            versions: components["schemas"]["StoredVersion"][];
            workflow: components["schemas"]["Workflow"];
        };
        WorkflowRef: {
            id: string;
            name: string;
            projectId: string;
        };
        WorkflowUsage: {
            inputTokens: number;
            outputTokens: number;
            runs: number;
            workflowId: string;
            workflowName: string;
        };
    };
    responses: {
        /** @description An error: 400 bad_request or invalid_ir, 401, 403, 404, 405, 409, 413, 422 validation_failed, 429 rate_limited, 502 from the provider, 503 unavailable while the database cannot be reached. */
        Error: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type APIKey = components['schemas']['APIKey'];
export type APIKeyCreated = components['schemas']['APIKeyCreated'];
export type Account = components['schemas']['Account'];
export type Approximated = components['schemas']['Approximated'];
export type AuditActor = components['schemas']['AuditActor'];
export type AuditEntry = components['schemas']['AuditEntry'];
export type AuditTarget = components['schemas']['AuditTarget'];
export type BatchCreated = components['schemas']['BatchCreated'];
export type BatchError = components['schemas']['BatchError'];
export type BatchTriggerResult = components['schemas']['BatchTriggerResult'];
export type BulkFailure = components['schemas']['BulkFailure'];
export type BulkFilter = components['schemas']['BulkFilter'];
export type BulkJob = components['schemas']['BulkJob'];
export type BulkStarted = components['schemas']['BulkStarted'];
export type CatalogNode = components['schemas']['CatalogNode'];
export type CatalogVersion = components['schemas']['CatalogVersion'];
export type CategoryCount = components['schemas']['CategoryCount'];
export type CategoryList = components['schemas']['CategoryList'];
export type ConfigField = components['schemas']['ConfigField'];
export type ConfigValidation = components['schemas']['ConfigValidation'];
export type Connection = components['schemas']['Connection'];
export type Converted = components['schemas']['Converted'];
export type D1Database = components['schemas']['D1Database'];
export type D1Meta = components['schemas']['D1Meta'];
export type D1Result = components['schemas']['D1Result'];
export type DeletedWorkflow = components['schemas']['DeletedWorkflow'];
export type DeliveryAttempt = components['schemas']['DeliveryAttempt'];
export type DeployConfig = components['schemas']['DeployConfig'];
export type DeployPlan = components['schemas']['DeployPlan'];
export type DeployProgress = components['schemas']['DeployProgress'];
export type DeployResult = components['schemas']['DeployResult'];
export type Deployment = components['schemas']['Deployment'];
export type EnvDiff = components['schemas']['EnvDiff'];
export type EnvVar = components['schemas']['EnvVar'];
export type EnvVarUsage = components['schemas']['EnvVarUsage'];
export type EnvVarUse = components['schemas']['EnvVarUse'];
export type Environment = components['schemas']['Environment'];
export type Error = components['schemas']['Error'];
export type Estimate = components['schemas']['Estimate'];
export type Health = components['schemas']['Health'];
export type IR = components['schemas']['IR'];
export type IRCompilation = components['schemas']['IRCompilation'];
export type IRDuration = components['schemas']['IRDuration'];
export type IREdge = components['schemas']['IREdge'];
export type IRMetadata = components['schemas']['IRMetadata'];
export type IRNode = components['schemas']['IRNode'];
export type IRNote = components['schemas']['IRNote'];
export type IRProblem = components['schemas']['IRProblem'];
export type IRRetries = components['schemas']['IRRetries'];
export type IRStepConfig = components['schemas']['IRStepConfig'];
export type IRTrigger = components['schemas']['IRTrigger'];
export type IRValidation = components['schemas']['IRValidation'];
export type ImportEnvVar = components['schemas']['ImportEnvVar'];
export type ImportReport = components['schemas']['ImportReport'];
export type ImportResult = components['schemas']['ImportResult'];
export type Installation = components['schemas']['Installation'];
export type InstallationDetails = components['schemas']['InstallationDetails'];
export type Invitation = components['schemas']['Invitation'];
export type InvitationCreated = components['schemas']['InvitationCreated'];
export type InvokeResult = components['schemas']['InvokeResult'];
export type KVKey = components['schemas']['KVKey'];
export type KVNamespace = components['schemas']['KVNamespace'];
export type KVValue = components['schemas']['KVValue'];
export type LogLine = components['schemas']['LogLine'];
export type MCPClientConfig = components['schemas']['MCPClientConfig'];
export type MCPConnect = components['schemas']['MCPConnect'];
export type MCPError = components['schemas']['MCPError'];
export type MCPMessage = components['schemas']['MCPMessage'];
export type MCPStdioCommand = components['schemas']['MCPStdioCommand'];
export type MarketplaceNode = components['schemas']['MarketplaceNode'];
export type Member = components['schemas']['Member'];
export type MonthlyCost = components['schemas']['MonthlyCost'];
export type NodeDefinition = components['schemas']['NodeDefinition'];
export type NodeTemplate = components['schemas']['NodeTemplate'];
export type OrganizationCreated = components['schemas']['OrganizationCreated'];
export type OrganizationList = components['schemas']['OrganizationList'];
export type OrganizationMembership = components['schemas']['OrganizationMembership'];
export type OrganizationUpdated = components['schemas']['OrganizationUpdated'];
export type OutputField = components['schemas']['OutputField'];
export type PinnedOutputs = components['schemas']['PinnedOutputs'];
export type PlanChange = components['schemas']['PlanChange'];
export type PlanInFlight = components['schemas']['PlanInFlight'];
export type PlanLimits = components['schemas']['PlanLimits'];
export type PlanVersionCount = components['schemas']['PlanVersionCount'];
export type PricingSource = components['schemas']['PricingSource'];
export type Project = components['schemas']['Project'];
export type PromoteResult = components['schemas']['PromoteResult'];
export type R2Bucket = components['schemas']['R2Bucket'];
export type R2Object = components['schemas']['R2Object'];
export type R2ObjectList = components['schemas']['R2ObjectList'];
export type RateLimit = components['schemas']['RateLimit'];
export type Readiness = components['schemas']['Readiness'];
export type Retention = components['schemas']['Retention'];
export type Role = components['schemas']['Role'];
export type Run = components['schemas']['Run'];
export type RunEvent = components['schemas']['RunEvent'];
export type RunLogsEnd = components['schemas']['RunLogsEnd'];
export type RunLogsView = components['schemas']['RunLogsView'];
export type RunStep = components['schemas']['RunStep'];
export type RunUsage = components['schemas']['RunUsage'];
export type Scope = components['schemas']['Scope'];
export type SentEvent = components['schemas']['SentEvent'];
export type SentEventRun = components['schemas']['SentEventRun'];
export type Session = components['schemas']['Session'];
export type SignUpOptions = components['schemas']['SignUpOptions'];
export type SignedIn = components['schemas']['SignedIn'];
export type StepError = components['schemas']['StepError'];
export type StepOutput = components['schemas']['StepOutput'];
export type StepRange = components['schemas']['StepRange'];
export type StoredVersion = components['schemas']['StoredVersion'];
export type StreamError = components['schemas']['StreamError'];
export type TestLogLine = components['schemas']['TestLogLine'];
export type TestResult = components['schemas']['TestResult'];
export type TokenUsage = components['schemas']['TokenUsage'];
export type TriggerResult = components['schemas']['TriggerResult'];
export type TriggerSecret = components['schemas']['TriggerSecret'];
export type UninstallResult = components['schemas']['UninstallResult'];
export type Unsupported = components['schemas']['Unsupported'];
export type User = components['schemas']['User'];
export type VerifyResult = components['schemas']['VerifyResult'];
export type Version = components['schemas']['Version'];
export type VersionDetail = components['schemas']['VersionDetail'];
export type Warning = components['schemas']['Warning'];
export type Webhook = components['schemas']['Webhook'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookWithSecret = components['schemas']['WebhookWithSecret'];
export type Whoami = components['schemas']['Whoami'];
export type WhoamiKey = components['schemas']['WhoamiKey'];
export type WhoamiOrganization = components['schemas']['WhoamiOrganization'];
export type WhoamiProject = components['schemas']['WhoamiProject'];
export type WhoamiUser = components['schemas']['WhoamiUser'];
export type WorkerLogLine = components['schemas']['WorkerLogLine'];
export type WorkerLogsView = components['schemas']['WorkerLogsView'];
export type WorkerRoute = components['schemas']['WorkerRoute'];
export type Workflow = components['schemas']['Workflow'];
export type WorkflowEnvVar = components['schemas']['WorkflowEnvVar'];
export type WorkflowFull = components['schemas']['WorkflowFull'];
export type WorkflowRef = components['schemas']['WorkflowRef'];
export type WorkflowUsage = components['schemas']['WorkflowUsage'];
export type ResponseError = components['responses']['Error'];
export type $defs = Record<string, never>;
export interface operations {
    aPIKeyList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [APIKey], nextCursor}`, newest first. An APIKey is `{id, organizationId, projectId, scope, userId, name, prefix, scopes, expiresAt, lastUsedAt, revokedAt, createdAt}` (`projectId: null` and `scope: "organization"` for an organization key); never the key. A key acts with at most its creator's current role. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["APIKey"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    aPIKeyCreate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    expiresAt?: string | null;
                    name?: string;
                    projectId?: string;
                    scopes?: string[];
                };
            };
        };
        responses: {
            /** @description The APIKey plus `key` (`ask_` and 43 URL-safe characters), shown this once. Without `projectId` the key is an organization key (`projectId: null`, `scope: "organization"`): it acts in the project named by the `X-Edgeflow-Project` header (default the organization's first project) and may change organization-wide records and projects. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["APIKeyCreated"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: scopes beyond the caller's role (a viewer's keys only read), or an organization key asked for without the admin role */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: also: `projectId` is not a project of the organization, `scopes` lacks `read` or holds an unknown scope, `expiresAt` is not in the future */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    aPIKeyRevoke: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: the key is another user's and the caller is not an admin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    auditList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description Only entries made by this user or API key id. */
                actor?: string;
                /** @description Only entries of this action, such as workflow.create. */
                action?: string;
                /** @description Only entries acting on this record id. */
                target?: string;
                /** @description Only entries at or after this RFC 3339 time. */
                since?: string;
                /** @description Only entries before this RFC 3339 time. */
                until?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [AuditEntry], nextCursor}`, newest first. An AuditEntry is `{id, organizationId, projectId, actor: {type: "user"|"key", id}, action, target: {type, id}, outcome, requestId, time}`: one state-changing request, allowed or refused; `outcome` is its status code. A project's API key gets only the entries recorded in its project and those whose target is its project. Filters: `actor` (a user or key id), `action` (such as `workflow.create`), `target` (a record id), `since` (inclusive) and `until` (exclusive), RFC 3339 times. Request bodies are never recorded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AuditEntry"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); forbidden: the caller (the key's creator, for an API key) is not an owner or admin of the organization */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made; validation_failed: `since` or `until` not an RFC 3339 time, `until` not after `since`, a filter over 200 characters or given twice */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    passwordChange: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword?: string;
                    newPassword?: string;
                };
            };
        };
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: a wrong `currentPassword` (at `/currentPassword`; wrong attempts count toward the sign-in back-off of the user's email), or a `newPassword` that sign-up would refuse or that equals the current one (at `/newPassword`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's verify limit or the per-IP limit is spent; rate_limited: 10 wrong passwords (sign-in and this route together) for the user's email: further attempts wait (`Retry-After`) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    session: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session body: `{user, organizations, activeOrganizationId, activeProjectId, csrfToken, expiresAt}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    sessionList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Session], nextCursor}`, newest first. A Session is `{id, createdAt, lastSeenAt, expiresAt, userAgent, ip, current}`: `lastSeenAt` is the last request made with it (recorded at most once a minute; `null` before the first), `userAgent` (at most 256 bytes) and `ip` are those of the sign-in, `current` marks the session of this request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Session"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    sessionRevoke: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: a session of another user, or one that is unknown, signed out or expired */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                    password?: string;
                };
            };
        };
        responses: {
            /** @description The session body (as sign-up); sets the session cookie. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: a wrong password or an unknown email (the same answer for both) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's verify limit or the per-IP limit is spent; rate_limited: 10 failures for one email: further attempts wait (`Retry-After`, 30 s doubling to 15 min; a success clears it) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    signOut: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    signUpOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{mode, firstUser}`: `mode` is `open`, `invite` or `closed` (`edgeflow serve --sign-up`); `firstUser` is true while the server has no user, whose first account (the owner) is then made with the one-time setup link `edgeflow serve` printed (`edgeflow admin setup-link` prints a new one). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignUpOptions"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                    invitationToken?: string;
                    name?: string;
                    organizationName?: string;
                    password?: string;
                    setupToken?: string;
                };
            };
        };
        responses: {
            /** @description The session body: `{user, organizations, activeOrganizationId, activeProjectId, csrfToken, expiresAt}`; sets the session cookie. With `invitationToken` the user joins the invitation's organization with its role (the email must be the invited one); otherwise the user gets an organization it owns (`organizationName`, default `"<name>'s organization"`) and a project `Default`. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the sign-up mode refuses it: `invite` (the default) without a valid invitation or setup token, `closed` without the setup token; a setup token that is used, expired or sent once a user exists; an invitation for another email */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no invitation has this `invitationToken` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the email is already registered (compared case-insensitively), or the invitation is accepted, revoked or expired */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: a password under 8 characters or over 1024 bytes, only whitespace, the email or its local part, or a common password (at `/password`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's verify limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    connectionList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Connection], nextCursor}`, newest first: the organization-wide connections and the project's. A Connection is `{id, organizationId, projectId?, scope, provider, name, accountId, credentials, createdAt, updatedAt}`; credentials are redacted (`apiToken: "***"`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Connection"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    connectionCreate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credentials?: {
                        accountId?: string | null;
                        apiToken?: string | null;
                    } | null;
                    limits?: {
                        cpuMs?: number;
                        steps?: number;
                    } | null;
                    name?: string;
                    plan?: string;
                    provider?: string;
                    scope?: string;
                };
            };
        };
        responses: {
            /** @description The Connection (redacted). `scope` defaults to `organization` for a session, `project` for an API key. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: also: an API key asking for `scope: organization` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: also: an `accountId` that is not 32 lowercase hex digits, an `apiToken` that is not 20 or more of `[A-Za-z0-9_-]` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    verifyToken: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credentials?: {
                        [key: string]: string;
                    };
                    provider?: string;
                };
            };
        };
        responses: {
            /** @description `{valid, accounts: [{id, name}]}`; `valid: false` with no accounts when the provider refuses the token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifyResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's verify limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    connectionDelete: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: also: an API key deleting an organization-wide connection */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: an active deployment uses the connection; `details` name each one: `{path, message, deploymentId, workflowId, workflowName, projectId}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    connectionUpdate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credentials?: {
                        accountId?: string | null;
                        apiToken?: string | null;
                    } | null;
                    limits?: {
                        cpuMs?: number;
                        steps?: number;
                    } | null;
                    name?: string | null;
                    plan?: string | null;
                };
            };
        };
        responses: {
            /** @description The Connection (redacted). Credential fields sent replace the stored ones; the others are kept. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: also: an API key changing an organization-wide connection */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    deploymentList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Deployment], nextCursor}`, newest first. A Deployment is `{id, workflowId, projectId, versionId, connectionId, status, url, scriptName, createdBy, createdAt, removedAt?}`; `status` is `active`, `replaced` (by a later deploy) or `removed` (taken down). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Deployment"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    envVarList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [EnvVar], nextCursor}`, by name: the organization's variables and the project's. An EnvVar is `{id, organizationId, projectId?, name, value, isSecret, scope, createdAt, updatedAt}`; a secret's `value` is `"***"`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EnvVar"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    envVarCreate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    isSecret?: boolean | null;
                    name?: string;
                    scope?: string;
                    value?: string | null;
                    values?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description The EnvVar. `scope` defaults to `organization` for a session, `project` for an API key. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvVar"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: also: an API key asking for `scope: organization` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the name is taken in that scope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    envVarUsage: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [{workflowId, workflowName, kind, uses: [{name, via, as?}]}], nextCursor}`, in the order of the workflow list: every workflow of the active project with the global variables a deploy of its current version would read, by name. `via` is `reference` (the version's IR or the trigger code reads `{{env.NAME}}` and the workflow declares no variable of that name) or `declared` (the workflow's variable `as` has the value `{{global.env.NAME}}`). The project's variable of that name is read when there is one, else the organization's. Values are never shown. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EnvVarUsage"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    envVarDelete: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: also: an API key deleting an organization-scope variable */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    envVarUpdate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    isSecret?: boolean | null;
                    name?: string | null;
                    onlyEnvironments?: boolean | null;
                    value?: string | null;
                    values?: {
                        [key: string]: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description The EnvVar. For a secret, `value: "***"` keeps the stored value; making a secret plain needs a new `value`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvVar"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: also: an API key changing an organization-scope variable */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the new name is taken in the scope */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    eventList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [SentEvent], nextCursor}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SentEvent"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    eventSend: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    payload?: unknown;
                    type?: string;
                    workflowId?: string;
                };
            };
        };
        responses: {
            /** @description The SentEvent (201): `{id, projectId, type, workflowId?, payload, runs: [{runId, workflowId, state, error?}], truncated?, replayOf?, createdAt}`. The event goes to every run of the project (of `workflowId` when given) that is paused on a `wait_for_event` node whose `eventType` is `type` (a literal type: a node whose type is an expression is not matched), through the worker serving the run's version, as POST …/trigger with `instanceId` delivers one. `state` is `delivered` or `failed` (with why: the run's version is no longer deployed, the worker refused it). At most 100 runs, looked for among the project's 1,000 newest paused runs: `truncated` says more may be waiting. Runs of other projects, and of other organizations, are never looked at. The event is stored; the project keeps its newest 1,000. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SentEvent"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB; payload_too_large: `payload` over 100 KB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `type` not 1 to 100 letters, digits, `_` or `-`, or the reserved `edgeflow-admission` (any case); `payload` not a JSON object; `workflowId` not a workflow of the project */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    eventGet: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The SentEvent. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SentEvent"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    eventReplay: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new SentEvent (201), `replayOf` the replayed event's id. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SentEvent"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the event was limited to a workflow that has since been deleted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    importAwaitStep: {
        parameters: {
            query?: {
                /** @description true also creates the workflow, with the converted IR as its first version (201). */
                create?: "true" | "false";
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The IR as AwaitStep exports it. */
                    ir?: Record<string, unknown>;
                    name?: string;
                    subWorkflows?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description The answer of `POST /api/import/n8n`, with `node` (the AwaitStep node's id) where n8n's has `n8nNode`. The body is `{ir, name?, subWorkflows?}` or the AwaitStep IR itself. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            /** @description Created (with ?create=true) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; invalid_ir: with `?create=true`: the converted IR does not pass a version submit's checks */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope; a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: `?create=true` with a key without the write scope, or for a viewer */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 4 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: the IR is not an AwaitStep IR (`details` name the field), or is past the bounds */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    importN8n: {
        parameters: {
            query?: {
                /** @description true also creates the workflow, with the converted IR as its first version (201). */
                create?: "true" | "false";
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    subWorkflows?: {
                        [key: string]: string;
                    };
                    /** @description The workflow as n8n exports it (its nodes and connections). */
                    workflow?: Record<string, unknown>;
                };
            };
        };
        responses: {
            /** @description `{ir, report: {converted: [{n8nNode, nodeIds}], approximated: [{n8nNode, what}], unsupported: [{n8nNode, type, reason, nodeIds?}], envVars: [{name, secret, why}], marketplace}, triggerCode?}`. Nothing is stored (200). With `?create=true` (which needs the write scope and the member role) the IR must pass every check of a version submit; the workflow is created with it as its first version and the answer (201) adds `workflow` and `version`. The body is `{workflow, name?, subWorkflows?}` or the n8n workflow itself; `subWorkflows` maps n8n workflow ids to edgeflow workflow ids, so that Execute Workflow nodes calling them become `sub_workflow` nodes. Every n8n node is in `converted` or in `unsupported` (an unsupported node becomes a step that throws `not converted: <type>`). At most 4 MiB and 1,000 nodes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            /** @description Created (with ?create=true) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; invalid_ir: with `?create=true`: the converted IR does not pass a version submit's checks (a marketplace node the organization has not installed; `details` name each problem) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope; a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: `?create=true` with a key without the write scope, or for a viewer */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 4 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: the workflow is not an n8n workflow (`details` name the field: `/workflow/nodes/3/type`), or is past the bounds; `create` is not `true` or `false` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    invitationAccept: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token?: string;
                };
            };
        };
        responses: {
            /** @description The session body with the joined organization active. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: the invitation was sent to another email address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: no invitation has this token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the invitation is accepted, revoked or expired, or the user is a member already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's verify limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    iRCompile: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ir?: unknown;
                    workflowId?: string;
                };
            };
        };
        responses: {
            /** @description `{code}`: the generated TypeScript, as a version of the IR gets it (`GET` of a version answers the same `code` for the version's `ir` and its `workflowId`): with `workflowId`, for that workflow (its id, name, env vars, dependencies and trigger code); without, for a workflow with id `preview`. The header shows the IR's `metadata.version`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IRCompilation"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; invalid_ir: the IR has problems: `details` are the `errors` `POST /api/ir/validate` answers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope; a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 8 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `ir` missing or not an object (at `/ir`), `workflowId` naming no workflow of the active project (at `/workflowId`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's ir limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    iRSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The IR's JSON Schema (draft 2020-12), `application/schema+json`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/schema+json": Record<string, unknown>;
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    iRValidate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ir?: unknown;
                    workflowId?: string;
                };
            };
        };
        responses: {
            /** @description `{valid, errors: [{nodeId?, path, message, rule, field?, line?, column?}]}`: every problem a version submit would refuse the IR for (the IR's rules of docs/ir.md, the organization's installed marketplace nodes, `kind` against the workflow's, `sub-workflow` references outside the project, `code-syntax` of step code with `field`, `line` and `column` inside the field's text, and `compile` when the compiler refuses it); `valid` is `errors` being empty. With `workflowId` (a workflow or function of the active project) the IR is checked as a version of that workflow; without it, on its own in the active project. The workflow's `triggerCode` is not checked here (its PATCH checks it). Its rate class, `ir`, allows an editor to call it and compile about once a second as the user types. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IRValidation"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope; a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 8 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `ir` missing or not an object (at `/ir`), `workflowId` naming no workflow of the active project (at `/workflowId`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's ir limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    marketplaceList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description Only runs whose params, output, error, step outputs or received event payloads contain every word of this (letters and digits, any case; docs/runs.md, "Finding runs"). */
                q?: string;
                category?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [CatalogNode], nextCursor}`, by node id: every catalog node with `installed`, `installedVersion` and `updateAvailable` for the organization. A CatalogNode is `{id, name, description, category, tags, author, license, latest, versions: [{version, checksum, changelog?}], installed, installedVersion, updateAvailable}`, versions newest first. Filters, optional and combined: `q`, words (any case) that each occur in the node's id, name, description or tags; `category`, one of the categories of docs/registry.md. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CatalogNode"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made; validation_failed: `q` is over 100 characters, `category` is not one of the categories (the path is `?q` or `?category`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    marketplaceCategories: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{categories: [{name, nodes}]}`: every category a node may declare (docs/registry.md), in that order, with the number of catalog nodes in it (0 included). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryList"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    marketplaceInstall: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    nodeId?: string;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description The Installation. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Installation"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: no such node or version in the catalog */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the node is already installed (update it instead) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent; rate_limited: also: more than 10 marketplace changes by the user in a minute */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    marketplaceInstalled: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Installation], nextCursor}`, by node id. An Installation is `{id, nodeId, name, description, category, version, checksum, latest, updateAvailable, installedBy, installedAt, updatedAt}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Installation"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    marketplaceUninstall: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    nodeId?: string;
                };
            };
        };
        responses: {
            /** @description `{ok: true}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UninstallResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: the node is not installed */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: a deployed version uses the node: `details` are the workflows `[{id, name, projectId}]`, which the message names too */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent; rate_limited: also: more than 10 marketplace changes by the user in a minute */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    marketplaceUpdate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    nodeId?: string;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description The Installation at its new version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Installation"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: the node is not installed, or no such version */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the node is installed at that version already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent; rate_limited: also: more than 10 marketplace changes by the user in a minute */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    marketplaceGet: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CatalogNode with its `versions` (each with its `changelog`, plain text, when the version has one), the latest version's `definition` (its `configSchema` names the required secrets: `secret` fields with their `envVarName`), the organization's `installation` (or `null`; with the installed version's `definition`) and `usedBy`: `[{id, name, projectId}]`, the organization's workflows whose active deployment uses the node (those an uninstall waits for; empty when it is not installed). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketplaceNode"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    mCPStream: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `text/event-stream` of `message` events, for as long as the session lasts or the stream lifetime: the messages the server sends outside the answer to a request (the protocol's pings and notifications; edgeflow's tools send none today, so the stream mostly stays quiet). It needs `Mcp-Session-Id` and `Accept: text/event-stream` (the transport answers 400 without them, 404 for a session that ended). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        data: components["schemas"]["MCPMessage"];
                        /** @constant */
                        event: "message";
                        id?: string;
                    };
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: a session (the route takes API keys only) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent; or as many streams are open as the user, the API key, the client address or the server allows (`Retry-After`: when the oldest of them ends at the latest; see Streams) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    mCPMessage: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    error?: {
                        code?: number;
                        data?: unknown;
                        message?: string;
                    } | null;
                    id?: unknown;
                    jsonrpc?: string;
                    method?: string;
                    params?: unknown;
                    result?: unknown;
                };
            };
        };
        responses: {
            /** @description For a request, `text/event-stream` with the response as a `message` event (the transport's answer; the first request, `initialize`, starts a session and answers its id in `Mcp-Session-Id`, which every later request sends); for a notification or a response, 202 without a body. What the transport refuses it answers itself, as the protocol says: 400 (not JSON-RPC, a protocol version it does not speak), 404 (`Mcp-Session-Id` names no session of this process: it ended, or another replica holds it; initialize again), 403 (the session belongs to another API key). A tool's failure (a missing scope, a record of another organization, an invalid IR) is a tool result with `isError`. The tools and their scopes: docs/agents.md. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        data: components["schemas"]["MCPMessage"];
                        /** @constant */
                        event: "message";
                        id?: string;
                    };
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: a session (the route takes API keys only) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent; or as many streams are open as the user, the API key, the client address or the server allows (`Retry-After`: when the oldest of them ends at the latest; see Streams); rate_limited: an `initialize` past the sessions one API key (16) or the server (1,024) may hold open */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    mCPEnd: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: a session (the route takes API keys only) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    mCPConnect: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{url, headers, stdio: {command, args, env}, clients: [{client, transport, file?, config?, command?}]}`: the Streamable HTTP URL, the stdio command (`edgeflow mcp`), and the configurations of Claude Code, Cursor and VS Code for each transport. It never holds a key: `<API key>` stands where one goes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MCPConnect"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    nodeList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [NodeDefinition], nextCursor}`: the builtins in the order of docs/nodes.md, then the organization's installed marketplace nodes by id. A NodeDefinition is `{id, name, description, category, version, configSchema, outputSchema, allowedInFunctions, builtin, ...}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["NodeDefinition"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    nodeTemplates: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An object keyed by node id: `{version, builtin, defaults, required, secretEnvVars}`, what an editor needs to fill in a node's `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: components["schemas"]["NodeTemplate"];
                    };
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    nodeGet: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The node definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NodeDefinition"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    openAPI: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of this API, built from the route table. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    organizationList: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [{id, name, slug, role, createdAt}]}`, oldest first (all of them: not paginated). `role` is `owner`, `admin`, `member` or `viewer`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationList"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    organizationCreate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            /** @description `{id, name, slug, role: "owner", createdAt, project}`: the organization and its first Project (`Default`). `PUT /api/session/active` switches to it. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationCreated"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    organizationDelete: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a caller whose role in the organization is below `owner` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: deployments of the organization are active: the message and `details` (`[{deploymentId}]`) list them; take them down first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    organizationUpdate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string | null;
                    runRetentionDays?: number | null;
                };
            };
        };
        responses: {
            /** @description `{id, name, slug, role, createdAt, runRetentionDays}` with the caller's role; the slug does not change. `runRetentionDays`: finished runs are deleted this many days after their creation (default 90; docs/runs.md). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationUpdated"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: neither `name` nor `runRetentionDays` given, a blank `name`, or `runRetentionDays` not between 1 and 3650 */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    invitationList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Invitation], nextCursor}`, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Invitation"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a caller whose role in the organization is below `admin` (for an API key: its creator's current role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    invitationCreate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                    role?: string;
                };
            };
        };
        responses: {
            /** @description The Invitation plus `token` and `acceptUrl` (`<base URL>/invite?token=…`), shown this once. An Invitation is `{id, organizationId, email, role, invitedBy, status, createdAt, expiresAt, acceptedAt, acceptedBy, revokedAt}` (`acceptedBy`: the user id, `""` until accepted); `status` is `pending`, `accepted`, `revoked` or `expired` (after 7 days). It is accepted once, by the user with that email. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationCreated"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the email belongs to a member already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `role` is not `admin`, `member` or `viewer` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    invitationRevoke: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                organizationId: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the invitation was accepted already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    memberList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Member], nextCursor}`, oldest membership first. A Member is `{userId, email, name, role, createdAt}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Member"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    memberRemove: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                organizationId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: removing another member without the admin role, or an admin removing the owner */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the member is the last owner */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    memberUpdate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                organizationId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    role?: string;
                };
            };
        };
        responses: {
            /** @description The Member with the new role. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: also: an admin changing the owner's role */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the member is the last owner */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `role` is not `admin`, `member` or `viewer` (the owner role moves only by transfer-ownership) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    transferOwnership: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    userId?: string;
                };
            };
        };
        responses: {
            /** @description The Member who is now the owner. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a caller whose role in the organization is below `owner` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `userId` is not another member of the organization */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    projectList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Project], nextCursor}`, oldest first. A Project is `{id, organizationId, name, slug, description, createdAt, updatedAt}`. An API key sees every project of its organization, as a session does. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Project"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    projectCreate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    name?: string;
                    slug?: string;
                };
            };
        };
        responses: {
            /** @description The Project. `slug` defaults to one made from the name. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the slug is taken in the organization */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    projectDelete: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the project still holds workflows, an active deployment uses one of its connections, or an API key asks to delete its own project */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    projectUpdate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    name?: string | null;
                };
            };
        };
        responses: {
            /** @description The Project. `slug` cannot change (an unknown field). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    environmentList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Environment], nextCursor: null}`, by name (at most 20). An Environment is `{projectId, name, connectionId, protected, createdAt, updatedAt}`; `connectionId` is `""` while it is bound to none. Every project has `production`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Environment"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    environmentCreate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: string;
                    name?: string;
                    protected?: boolean;
                };
            };
        };
        responses: {
            /** @description The Environment (201). `name`: lowercase letters and digits in words joined by hyphens, at most 32 characters, no word `v` followed by digits. `connectionId` (optional) binds it; `protected` (default false) lets only admins and owners deploy, promote and roll back there. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Environment"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: `connectionId` names no connection the project may use */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the name is taken in the project, the connection is bound to another of its environments, or the project has 20 environments */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: a bad `name` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    environmentDelete: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: no environment of that name */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: `production` cannot be deleted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    environmentUpdate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: string | null;
                    protected?: boolean | null;
                };
            };
        };
        responses: {
            /** @description The Environment. `connectionId: ""` binds it to none. Deployments already made stay where they are. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Environment"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `admin` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: no environment of that name, or `connectionId` names no connection the project may use */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the connection is bound to another environment of the project */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `connectionId` with surrounding space */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    d1Databases: {
        parameters: {
            query: {
                /** @description The connection whose provider account is read. */
                connectionId: string;
                /** @description Only names starting with this. */
                prefix?: string;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [{id, name, createdAt?, numTables, fileSize}], nextCursor}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["D1Database"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made; validation_failed: no `connectionId` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    d1Query: {
        parameters: {
            query: {
                /** @description The connection whose provider account is read. */
                connectionId: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                databaseId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: string;
                    params?: unknown[];
                    sql?: string;
                };
            };
        };
        responses: {
            /** @description `{columns, rows, meta}`: the column names, the rows as arrays of values, and `{duration, changes, lastRowId, rowsRead, rowsWritten}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["D1Result"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope; a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: a key with `read` only sends a statement that would write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    kVNamespaces: {
        parameters: {
            query: {
                /** @description The connection whose provider account is read. */
                connectionId: string;
                /** @description Only names starting with this. */
                prefix?: string;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [{id, title}], nextCursor}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["KVNamespace"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made; validation_failed: no `connectionId` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    kVKeys: {
        parameters: {
            query: {
                /** @description The connection whose provider account is read. */
                connectionId: string;
                /** @description Only names starting with this. */
                prefix?: string;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                namespaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [{name, expiration?, metadata?}], nextCursor}`; `limit` may go up to 1000. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["KVKey"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 1000, or `cursor` is not one this server made; validation_failed: no `connectionId` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    kVValue: {
        parameters: {
            query: {
                /** @description The connection whose provider account is read. */
                connectionId: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                namespaceId: string;
                /** @description The rest of the path; it may contain /. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{key, value, encoding, size}`: the value as text (`encoding: "utf-8"`) or, when it is not UTF-8, as base64 (`encoding: "base64"`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KVValue"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: no `connectionId` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    r2Buckets: {
        parameters: {
            query: {
                /** @description The connection whose provider account is read. */
                connectionId: string;
                /** @description Only names starting with this. */
                prefix?: string;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [{name, createdAt?}], nextCursor}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["R2Bucket"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made; validation_failed: no `connectionId` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    r2Objects: {
        parameters: {
            query: {
                /** @description The connection whose provider account is read. */
                connectionId: string;
                /** @description Only names starting with this. */
                prefix?: string;
                /** @description Keys that go on past it after the prefix are answered once, as delimitedPrefixes ("/" lists folders). */
                delimiter?: string;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                bucketName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [{key, size, etag?, lastModified?, contentType?}], delimitedPrefixes, nextCursor}`: objects in key order. With `delimiter` (e.g. `/`), a key that goes on past the delimiter after `prefix` is not listed; its part up to and including the delimiter is in `delimitedPrefixes` once (the "folders" below `prefix`). `limit` may go up to 1000. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["R2ObjectList"];
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made; validation_failed: no `connectionId`; `delimiter` empty, over 16 bytes or with control characters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    r2Object: {
        parameters: {
            query: {
                /** @description The connection whose provider account is read. */
                connectionId: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                bucketName: string;
                /** @description The rest of the path; it may contain /. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The object's bytes with its stored `Content-Type` (`application/octet-stream` when it has none), `Content-Length`, `ETag`, `Last-Modified` and `Content-Disposition: attachment` naming the key's last `/` segment as the file name. The key is the rest of the path, percent-encoded where needed (`/` may stay). Objects up to 64 MiB are read. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: no such object or bucket */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the object is over 64 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: no `connectionId` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description Only runs in this status. */
                status?: string;
                /** @description Only runs of this workflow. */
                workflowId?: string;
                /** @description Only runs of this version. */
                versionId?: string;
                /** @description Only runs created at or after this time (RFC 3339). */
                from?: string;
                /** @description Only runs created before this time (RFC 3339). */
                to?: string;
                /** @description Only runs whose params, output, error, step outputs or received event payloads contain every word of this (letters and digits, any case; docs/runs.md, "Finding runs"). */
                q?: string;
                /** @description Only runs in this project environment (docs/environments.md). */
                environment?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Run], nextCursor}`, newest first. A Run is `{id, workflowId, projectId, versionId, connectionId, deploymentId, instanceId, status, statusDetail?, params?, output?, error?, usage?, restartOf?, fromStep?, deletedWorkflow?, createdAt, startedAt, endedAt, updatedAt}` (`usage: {inputTokens, outputTokens}` on a run whose agent nodes made model calls) (`deletedWorkflow: {name, deletedAt}` on a run kept after its workflow was deleted; such runs are listed, also with `workflowId` set to the deleted workflow's id); a run's `steps` are in its detail (GET /api/workflows/:workflowId/runs/:runId). Filters, all optional and combined: `workflowId`, `status`, `versionId`, `from` (inclusive) and `to` (exclusive), RFC 3339 times on `createdAt`, and `q`: words that the run's params, output, error, step outputs and received event payloads must all contain together (letters and digits, any case; never a sensitive step's output; docs/runs.md). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Run"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: `workflowId` names no workflow of the project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made; validation_failed: `status` is not one of the six run states, `from` or `to` is not an RFC 3339 time or `to` is not after `from`, `q` is over 200 characters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    bulkStart: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    action?: string;
                    dryRun?: boolean;
                    filter?: {
                        /** Format: date-time */
                        from?: string | null;
                        q?: string;
                        runIds?: string[];
                        status?: string;
                        /** Format: date-time */
                        to?: string | null;
                        versionId?: string;
                        workflowId?: string;
                    };
                    fromStep?: string;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description `{id, matched}` (202): the job acting on the `matched` runs, which GET /api/runs/bulk/:id follows. With `dryRun: true` nothing is done and nothing stored: `{matched, dryRun: true, runIds}` with the first 20 runs. `filter` takes the run search's filters (`workflowId`, `status`, `versionId`, `from`, `to`, `q`; docs/runs.md), or `runIds` alone: up to 1,000 runs of the project by id (Studio's selection). `restart` restarts each run from `fromStep` (or the start) on `version`, as POST …/restart; `replay` replays it with its own params, as POST …/replay; `terminate` terminates it; `delete` deletes it with its instance (finished runs only). At most 10,000 runs; new runs start at most 100 per second and workflow. The job is audited once, when it ends, as `run.bulk` with the filter and the counts. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkStarted"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `action` is not restart, replay, terminate or delete; `fromStep` or `version` with terminate or delete; a bad filter (unknown status or workflow, `to` not after `from`, `q` over 200 characters); the filter matches more than 10,000 runs; `runIds` beside another filter, over 1,000 ids, or naming a run the project does not have */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    bulkGet: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                bulkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job: `{id, action, filter, fromStep?, version?, state, matched, done, failed: [{runId, error}], failedCount, createdAt, updatedAt, endedAt}`. `state` is `running`, `complete` or `cancelled`; `done` counts the runs acted on, failed or not; `failed` lists the first 100 failures, `failedCount` counts them all. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkJob"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    bulkCancel: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                bulkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job (200), `cancelled`; a batch in progress (at most 25 runs) completes and is counted. A job that ended is answered as it is. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkJob"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runStream: {
        parameters: {
            query?: {
                after?: string;
                timeoutSeconds?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `text/event-stream`: one `run` event per state change of a run of the project (its creation too), within 2 s of the change, on every replica: `data: {id, workflowId, projectId, status, statusDetail?, error?, updatedAt}` (`id` is the run's), the frame's `id:` an opaque id of the event, which shows nothing of other projects' or organizations' activity. A comment line (`: heartbeat`) every 15 s keeps proxies from closing an idle stream. `Last-Event-ID` (or `?after=`) replays the changes after that event that are still kept (one hour; `0`: every change still kept); `timeoutSeconds` (1 to 86400) ends the stream after that long; in any case it ends after the stream lifetime (30 minutes unless configured; see Streams) with the comment `: the stream reached its lifetime; reconnect with Last-Event-ID`, or when the client or the server (at shutdown) closes it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        data: components["schemas"]["RunEvent"];
                        /** @constant */
                        event: "run";
                        id?: string;
                    };
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `after` (or `Last-Event-ID`) is neither the id of an event this server sent nor `0`, `timeoutSeconds` is not an integer from 1 to 86400 */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent; or as many streams are open as the user, the API key, the client address or the server allows (`Retry-After`: when the oldest of them ends at the latest; see Streams) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runUsage: {
        parameters: {
            query?: {
                /** @description Only runs of this workflow. */
                workflowId?: string;
                /** @description Only runs in this status. */
                status?: string;
                /** @description Only runs of this version. */
                versionId?: string;
                /** @description Only runs created at or after this time (RFC 3339). */
                from?: string;
                /** @description Only runs created before this time (RFC 3339). */
                to?: string;
                /** @description Only runs whose params, output, error, step outputs or received event payloads contain every word of this (letters and digits, any case; docs/runs.md, "Finding runs"). */
                q?: string;
                /** @description Only runs in this project environment (docs/environments.md). */
                environment?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{inputTokens, outputTokens, runs, workflows: [{workflowId, workflowName, inputTokens, outputTokens, runs}], partial}`: the tokens of the model calls of the selected runs' agent nodes (docs/runs.md, "Token usage"), in all and per workflow, the most tokens first; `runs` counts the selected runs that made model calls (runs without any are not counted). The filters are those of GET /api/runs: `workflowId`, `status`, `versionId`, `from`, `to` and `q`. A sum reads the newest 100,000 such runs: `partial: true` says that older ones matched too and are not in the sums (narrow with `from` and `to`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunUsage"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: `workflowId` names no workflow of the project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `status` is not one of the six run states, `from` or `to` is not an RFC 3339 time or `to` is not after `from`, `q` is over 200 characters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    projectRunGet: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Run with its `steps`, as GET /api/workflows/:workflowId/runs/:runId answers it while the workflow exists (refreshed from the provider while not final). A run kept after its workflow was deleted (DELETE /api/workflows/:id?runs=keep) is answered as stored, with `deletedWorkflow: {name, deletedAt}`; its steps keep their names, states, outputs and errors, and have `nodeId: ""` once the workflow's versions are gone. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    sessionActive: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    organizationId?: string;
                    projectId?: string;
                };
            };
        };
        responses: {
            /** @description The session body with the new active organization and project (without `projectId`: the organization's first project). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key (the route takes a session only); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: an organization the user is not a member of, or a project of another organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    webhookList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Webhook], nextCursor}`, newest first. A Webhook is `{id, organizationId, projectId, url, events, createdAt, updatedAt}`; `events` empty means every type. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    webhookCreate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    events?: string[];
                    url?: string;
                };
            };
        };
        responses: {
            /** @description The Webhook plus `secret` (`whsec_` and base64), shown this once: it signs every delivery (docs/runs.md, "Webhooks"). `events` are some of `run.started`, `run.completed`, `run.errored`, `run.waiting`, `run.terminated`, `run.stuck`, `run.rolled_back`, `deploy.completed`, `deploy.failed`; omitted or empty: all. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `url` is not an absolute http(s) URL without credentials, or its host is or resolves to a loopback, link-local or private address that `serve --allow-hosts` does not allow; an unknown or repeated event type */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    webhookGet: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    webhookDelete: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    webhookUpdate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    events?: string[] | null;
                    url?: string | null;
                };
            };
        };
        responses: {
            /** @description The Webhook. Fields left out are kept; the secret does not change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: neither `url` nor `events` given, or either refused as at creation */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    webhookDeliveries: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Delivery], nextCursor}`, newest first. A Delivery is `{id, webhookId, projectId, messageId, eventType, payload, status, responseStatus, attempts, nextAttemptAt, redeliveryOf?, createdAt, updatedAt}`: `messageId` is the `webhook-id` header of every attempt, `payload` the body sent (`{type, timestamp, data}`), `status` `pending`, `delivered` (a 2xx answer) or `failed` (no attempt left), `responseStatus` the last answer's status (0: none), each attempt `{at, responseStatus, error?, responseBody?, durationMs}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    webhookRedeliver: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new Delivery (`pending`, due now, `redeliveryOf` the original): the same `messageId` and payload, with its own attempts and retries. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    webhookRotateSecret: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Webhook plus the new `secret`, shown this once; every attempt from now on, retries of earlier messages too, is signed with it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    whoami: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{user: {id, email, name}, apiKey, organization, project}`: `apiKey` is `{id, name, prefix, scope, scopes, expiresAt}` for a key (never the key), `null` for a session; `organization` is `{id, name, slug, role}` and `project` `{id, name, slug}`, each `null` when there is none. Command-line clients use it for `whoami`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Whoami"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    workflowList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Workflow], nextCursor}`, newest first. A Workflow is `{id, organizationId, projectId, name, description, kind, envVars, triggerCode, dependencies, deployConfig, currentVersionId, activeVersionId, createdAt, updatedAt}`; secret values of `envVars` are `"***"`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Workflow"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    workflowCreate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    kind?: string;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description The Workflow. `kind` is `workflow` (the default) or `script` (a function). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    workflowGet: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Workflow. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    workflowDelete: {
        parameters: {
            query?: {
                /** @description true deletes without taking the deployments down. */
                force?: string;
                runs?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: the workflow is deployed in a protected environment and the caller is below admin (with or without ?force=true) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `runs` is neither `keep` nor `delete` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    workflowUpdate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    dependencies?: {
                        [key: string]: string;
                    } | null;
                    deployConfig?: {
                        concurrency?: number | null;
                        publicTrigger?: boolean | null;
                        rateLimit?: {
                            key?: string;
                            limit?: number;
                            period?: string;
                        } | null;
                        retention?: {
                            error?: string;
                            success?: string;
                        } | null;
                        route?: {
                            pattern?: string;
                            zoneName?: string;
                        } | null;
                    } | null;
                    description?: string | null;
                    envVars?: {
                        isSecret?: boolean;
                        name?: string;
                        onlyEnvironments?: boolean;
                        value?: string;
                        values?: {
                            [key: string]: string;
                        };
                    }[] | null;
                    name?: string | null;
                    triggerCode?: string | null;
                };
            };
        };
        responses: {
            /** @description The Workflow. `envVars` replaces the list; `deployConfig` replaces the stored object; `kind` cannot change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: also: `triggerCode` that does not parse (`details` give `line` and `column` in its text), a dependency that is not a registry package with a semver range or dist-tag, `deployConfig.concurrency` outside 0 to 50,000, a `deployConfig.rateLimit` whose `limit` is outside 1 to 100,000, whose `period` is not whole seconds from 1 second to 1 hour or whose `key` reads anything but `{{event.payload.<field>}}` (docs/deploy.md, "Flow control") */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    workflowFull: {
        parameters: {
            query?: {
                /** @description A version id to show instead of the current version. */
                version?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{workflow, currentVersion, versions, activeDeployment}`: the Workflow; the current version (or the one `?version=` names) with its `ir` and `code`, `null` when there is none; version summaries, highest first; the newest active Deployment or `null`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowFull"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    workflowMove: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    targetProjectId?: string;
                };
            };
        };
        responses: {
            /** @description The Workflow, now in the target project; its versions, deployments and runs move with it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: the target project is not in the organization (for an API key: any project but its own) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the workflow is deployed on a connection of its current project */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    deploy: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: string;
                    environment?: string;
                    force?: boolean;
                    inFlight?: string;
                    rotateTriggerSecret?: boolean;
                    versionId?: string;
                };
            };
        };
        responses: {
            /** @description The Deployment with `success: true` and `deploymentId`. Deploys the current version unless `versionId` names another. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeployResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; deploy_failed: a stage failed for a reason of the request: the code does not bundle, a dependency cannot be installed, an environment variable is missing */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the workflow has no version, or the version is locked; `inFlight: "migrate"` while the plan is not compatible and `force` is not set (`details` is the plan) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `inFlight` is not `pin`, `migrate` or `drain` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's deploy limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    deployPlan: {
        parameters: {
            query?: {
                /** @description The connection the deploy would go to; required unless environment is given. */
                connectionId?: string;
                /** @description The project environment the deploy would go to, in place of connectionId (docs/environments.md). */
                environment?: string;
                /** @description The version the deploy would make active (default: the current one). */
                versionId?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{workflowId, connectionId, versionId, number, activeVersionId, inFlight: {total, byVersion: [{versionId, number, count}]}, changes: [{kind, nodeId, step, detail}], compatible, reasons}`. `kind` is `added`, `removed`, `renamed`, `reordered`, `code-changed` or `config-changed`, from the active version to this one; `compatible` is false when a run in flight of the active version has passed a step that this version renames, removes or reorders, or that a new step now precedes (docs/releases.md, "The deploy plan"). `versionId` defaults to the current version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeployPlan"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: the workflow, connection or version is unknown */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the workflow has no version */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: no `connectionId` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    deployStream: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: string;
                    environment?: string;
                    force?: boolean;
                    inFlight?: string;
                    rotateTriggerSecret?: boolean;
                    versionId?: string;
                };
            };
        };
        responses: {
            /** @description `text/event-stream`: first a `plan` event (the deploy plan of GET …/deploy-plan) for a workflow, then one `progress` event per stage (`INITIALIZING` … `COMPLETED`), then `result` (the deploy answer) or `error` (the error body). Refusals before the first stage are ordinary JSON errors. The stream lasts as long as its deploy, which the server ends after 5 minutes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        data: components["schemas"]["StreamError"];
                        /** @constant */
                        event: "error";
                        id?: string;
                    } | {
                        data: components["schemas"]["DeployPlan"];
                        /** @constant */
                        event: "plan";
                        id?: string;
                    } | {
                        data: components["schemas"]["DeployProgress"];
                        /** @constant */
                        event: "progress";
                        id?: string;
                    } | {
                        data: components["schemas"]["DeployResult"];
                        /** @constant */
                        event: "result";
                        id?: string;
                    };
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; deploy_failed: a stage failed for a reason of the request (before the stream starts; later as an `error` event) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the workflow has no version, or the version is locked */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's deploy limit or the per-IP limit is spent; or as many streams are open as the user, the API key, the client address or the server allows (`Retry-After`: when the oldest of them ends at the latest; see Streams) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    workflowDeploymentList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Deployment], nextCursor}`, newest first. Each has `state`: `active`, `draining` (replaced, its worker and Workflow still serving its runs in flight, `inFlight` counts them), `retired` (its worker and Workflow deleted once drained, or its names taken over by a later deployment) or `removed` (taken down); `inFlight` is set for `active` and `draining`, `versionNumber` names the version (docs/releases.md). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Deployment"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    estimate: {
        parameters: {
            query?: {
                /** @description The version to estimate (default: the current one). */
                versionId?: string;
                /** @description The runs a month to price (a whole number, 0 to 10^12). */
                runsPerMonth?: string;
                /** @description The connection whose plan prices the runs (the Paid plan without one). */
                connectionId?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{versionId, plan, runsPerMonth, stepsPerRun: {min, max}, billedStepsPerRun: {min, max}, monthly: {steps, included, billable, usd}, pricing: {date, source}, warnings}`. `stepsPerRun` counts a run's `step.do` calls (steps, HTTP requests, sub-workflows, marketplace nodes, an agent's turns and tool calls), `billedStepsPerRun` adds its sleeps and event waits, which are billed steps (and, for a workflow with a cron trigger and flow control, the admission wait of a cron start, one more at most); loops count by their count, a literal collection's length or `maxIterations`, and `max` is null when a loop has no bound (the month is then priced on `min`, and `warnings` say so). The month is `runsPerMonth` runs of the most billed steps: on Paid 500,000 steps are included, then $0.80 per 100,000; on Free 3,000 a day (90,000 over 30 days) run and `billable` are the steps it would not run (`usd` 0). `versionId` defaults to the current version, the plan to `connectionId`'s (Paid without one). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: `versionId` or `connectionId` names nothing the caller sees */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the workflow is a function, or has no version */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `runsPerMonth` missing, not a whole number, or outside 0 to 10^12 */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    invoke: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body?: unknown;
                    connectionId?: string;
                    headers?: {
                        [key: string]: string;
                    };
                    method?: string;
                    path?: string;
                };
            };
        };
        responses: {
            /** @description `{status, headers, body, bodyTruncated, durationMs}`: the function's status (whatever it is), its safe answer headers (`content-type`, `cache-control`, `content-disposition`, `content-language`, `etag`, `expires`, `last-modified`, `location`, `retry-after`, `vary`; names in lower case), its body as text cut at 1 MiB (`bodyTruncated: true` then) and the call's duration. The request is `{connectionId, method?, path?, body?, headers?}`: `method` POST (default), GET, PUT or DELETE; `path` below the function's URL (default `/`, may carry a query); `body` any JSON, sent as `application/json` (not with GET); `headers` at most 20 `{name: value}`. Edgeflow calls the URL of the function's active deployment on the connection, follows no redirect and waits at most the provider timeout (30 s by default). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvokeResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; bad_request: the workflow is not a function (trigger it instead) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the function is not deployed on this connection */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB; payload_too_large: `body` over 100 KB serialized */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: no `connectionId`; `method` not one of the four; `path` not starting with `/`, starting with `//`, or holding spaces, control characters, `\`, `#`, `//`, `.` or `..` segments, or encoded `/`, `\`, `.` or NUL; a GET with a `body`; a header name that is not a token, a header that may not be set (`Host`, `Authorization`, `Proxy-Authorization`, `Cookie`, `Connection`, `Content-Length`, `Transfer-Encoding`, `TE`, `Trailer`, `Upgrade`, `Keep-Alive`, `Expect`, `Forwarded`, `Via`, `Max-Forwards`, `X-Real-IP`, `True-Client-IP`, and any `X-Edgeflow-*`, `X-Forwarded-*`, `Proxy-*`, `Sec-*`, `CF-*` or `MF-*`), a value with control characters or over 4096 bytes, more than 20 headers (`details` name the field, e.g. `/headers/Cookie`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_unavailable: the function's worker could not be reached or did not answer in time */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    pinnedOutputsGet: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{outputs, updatedAt, updatedBy}`: `outputs` by node id (`{}` and `updatedAt` `null` when never set). They are kept beside the workflow's versions, never in an IR, so no deployment ever uses them. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PinnedOutputs"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    pinnedOutputsPut: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    outputs?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The pinned outputs as stored, as `GET` answers them. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PinnedOutputs"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `outputs` missing, a key that is not a node id, more than 200 nodes, or over 512 KB serialized */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    promote: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    from?: string;
                    inFlight?: string;
                    to?: string;
                };
            };
        };
        responses: {
            /** @description `{deployment, envDiff: {missing, extra}}`: the Deployment made in `to` (as deploy answers it, pinning applying as to any deploy, `inFlight` as deploy's) and the variables `from` has and `to` lacks (`missing`) or `to` has and `from` lacks (`extra`). Nothing is deployed when the version reads a variable `to` lacks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PromoteResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: `to` is protected and the caller is below admin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: `from` or `to` is no environment of the project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: an environment is bound to no connection, or the workflow is not deployed in `from` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: no `from` or `to`, the same for both, or the version reads a variable `to` lacks (each named) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's deploy limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    rollback: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: string;
                    environment?: string;
                    inFlight?: string;
                };
            };
        };
        responses: {
            /** @description The Deployment, as deploy answers, of the version active on `connectionId` before the active one (the newest earlier deployment there of another version). Runs in flight of the current version stay pinned to it unless `inFlight` says `migrate` or `drain` (docs/releases.md). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeployResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the workflow is not deployed on the connection, or no earlier version was active there */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: no `connectionId`, or `inFlight` is not `pin`, `migrate` or `drain` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's deploy limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    workflowRunList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description Only runs in this status. */
                status?: string;
                /** @description Only runs of this version. */
                versionId?: string;
                /** @description Only runs created at or after this time (RFC 3339). */
                from?: string;
                /** @description Only runs created before this time (RFC 3339). */
                to?: string;
                /** @description Only runs whose params, output, error, step outputs or received event payloads contain every word of this (letters and digits, any case; docs/runs.md, "Finding runs"). */
                q?: string;
                /** @description Only runs in this project environment (docs/environments.md). */
                environment?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [Run], nextCursor}`, newest first, filtered as GET /api/runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Run"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made; validation_failed: `status` is not one of the six run states, `from` or `to` is not an RFC 3339 time or `to` is not after `from`, `q` is over 200 characters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runGet: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Run, refreshed from the provider first while it is not final, with `steps`: its durable steps in execution order, each `{nodeId, name, type, state, attempts, startedAt, endedAt, output, outputTruncated, error}`. `state` is `running`, `retrying`, `waiting`, `complete`, `errored`, `terminated` or `replayed` (taken from the original run by a restart); a rollback (`type` `rollback`, listed after the other steps in the order it ran, named after the step it undid) is `rolled_back` or `rollback_failed`; `error` is `{name, message}` of the last failed attempt or null; an `output` over 64 KiB is cut to its first 64 KiB of JSON text, given as a string, with `outputTruncated: true`. A restarted run also has `restartOf` and `fromStep`. A run with agent nodes has `usage: {inputTokens, outputTokens}`, the tokens of the model calls it made (its `agent <node> turn N` steps; docs/runs.md). A run triggered while OpenTelemetry tracing is on has `traceId`, and `traceUrl` when EDGEFLOW_TRACE_URL_TEMPLATE is set (docs/observability.md). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runLogs: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [{timestamp, level, message}], dropped, available, reason?, status, final}`: only this run's lines, oldest first (`level` is `debug`, `info`, `log`, `warn` or `error`; an uncaught exception is an `error` line `Name: message`), kept with the run (at most 1,000 lines and 256 KiB; `dropped` counts older lines left out). On a Cloudflare connection `available` is false, `data` empty and `reason` says where to read them. With `Accept: text/event-stream`: one `log` event per line, new ones as they come while the run is active, then `end` `{status, final}` (docs/runs.md); a stream still open after the stream lifetime (see Streams) ends with `end` `{status, final: false}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunLogsView"];
                    "text/event-stream": {
                        data: components["schemas"]["RunLogsEnd"];
                        /** @constant */
                        event: "end";
                        id?: string;
                    } | {
                        data: components["schemas"]["StreamError"];
                        /** @constant */
                        event: "error";
                        id?: string;
                    } | {
                        data: components["schemas"]["LogLine"];
                        /** @constant */
                        event: "log";
                        id?: string;
                    };
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: no such workflow or run in the active project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent; or as many streams are open as the user, the API key, the client address or the server allows (`Retry-After`: when the oldest of them ends at the latest; see Streams) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runPause: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Run, now `paused`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the run is neither running nor queued */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runReplay: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    fromStep?: string;
                    params?: unknown;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description The new Run (`queued`, 201) with `params` the given ones, `replayOf` (the replayed run's id) and `paramsChanged` (whether they differ from its params). `params` are checked as a trigger's (a JSON object of at most 100 KB). `fromStep` and `version` are the restart's: with `fromStep`, the steps before it are replayed from the run (state `replayed`) and see nothing of the new params; the steps from it on run with them. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: as a restart: a step before `fromStep` did not complete; `same` while another version is deployed; the workflow is not deployed on the run's connection */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB; payload_too_large: `params` over 100 KB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: no `params`, `params` not an object, `fromStep` no step of the chosen version, `version` neither `same` nor `current` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runRestart: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    fromStep?: string;
                    mode?: string;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description With `mode` `replay` (default): the new Run (`queued`) on the original run's connection, with `restartOf` (the original run's id), `fromStep`, and the replayed steps first in `steps` (state `replayed`). `fromStep` omitted restarts from the start; `version` is `same` (default: the run's own version) or `current` (the version deployed now). With `mode` `in-place`: the same Run, `running` again, its instance restarted by the provider from `fromStep` (the steps before it keep their results there); it needs the run's own version deployed on its connection. docs/runs.md gives the rules. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: a step before `fromStep` did not complete in the original run; the chosen version lacks one of those steps; `same` while another version is deployed (the message says to use `current`); the workflow is not deployed on the run's connection; in place: another version is deployed, the run never ran `fromStep`, or the provider has no native restart */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `fromStep` is no step of the chosen version, `version` is neither `same` nor `current`, `mode` is neither `replay` nor `in-place`, `version` `current` with `in-place`, or the replayed outputs are over 1 MiB */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runResume: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Run, running again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the run is not paused by hand (a run waiting for an event is resumed by the event) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runStepOutput: {
        parameters: {
            query?: {
                attempt?: string;
                iteration?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                runId: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{runId, nodeId, name, attempt?, state, error?, output, source}`: `output` is the whole JSON value the step returned (a `waitForEvent` node: the event's payload), not cut at 64 KiB as in the run's `steps`; a step the provider keeps sensitive answers `"[REDACTED]"`. `?attempt=` (from 1) reads one attempt of a step, its `state` and `error`; `?iteration=` (`2`, `1.3` in nested loops) picks one run of a node inside loops. `state` is `running`, `retrying`, `waiting`, `complete`, `errored` or `replayed`; `source` is `provider` (the step endpoint) or `run` (a replayed step, or a provider without the endpoint: the output the run stored). A step that returned a `ReadableStream` answers its bytes as `application/octet-stream` (header `Edgeflow-Step-State`). docs/runs.md, "Step outputs". */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StepOutput"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: no such workflow or run in the active project; the run has no step of the node (`/nodeId`), no such iteration (`?iteration`) or attempt (`?attempt`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the node ran several times in loops and no `iteration` was given; the node is a sleep (no output); the provider cannot read one attempt; the run's connection no longer exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `attempt` is not a whole number from 1 to 1000, or `iteration` is not of the form `2` or `1.3` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runTerminate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Run, now `terminated`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the run is final already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    runWorkerLogs: {
        parameters: {
            query?: {
                before?: string;
                after?: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [{timestamp, level, message, instanceId}], from, to, dropped}`: the worker's lines between the run's creation minus `before` and its end (now while it runs) plus `after` (durations such as `30s`, default `1m`, at most `1h`), oldest first; `instanceId` names the Workflow instance of a line written by a run ("" for requests). `dropped` counts lines the edge's ring of this worker let go (docs/edge.md). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkerLogsView"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the run is on a Cloudflare connection (the edge keeps no logs there), or its connection no longer exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `before` or `after` is not a duration between 0s and 1h */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the local edge refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    signedTrigger: {
        parameters: {
            query: {
                /** @description The connection whose provider account is read. */
                connectionId: string;
                queue?: string;
            };
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 201 `{id, instanceId, status, statusDetail?}` as the trigger answers. No credential: the request is signed as for the worker's public trigger (`X-Edgeflow-Timestamp`, `X-Edgeflow-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>`), the body (any content type, at most 100 KB) being the run's params, a JSON object. `?connectionId=` names the connection of the active deployment; `?queue=true` holds a run the workflow's `deployConfig.concurrency` or `rateLimit` refuses now. The instance id is `sig_` and the first 40 hex digits of the signature. A workflow with flow control must be triggered here: its worker refuses signed requests (docs/deploy.md, "Public trigger"). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerResult"];
                };
            };
            /** @description unauthorized: no signature, a wrong one, a timestamp more than 5 minutes from the server's clock, a signed event, or no public trigger on that workflow and connection (one answer for all) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the same signed request was accepted already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: a body over 100 KB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: no `connectionId`, `queue` not true or false, params not a JSON object */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent; rate_limited: the workflow's `deployConfig.concurrency` or `rateLimit` refuses a run now (without `queue=true`); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    takedown: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: string;
                    environment?: string;
                };
            };
        };
        responses: {
            /** @description The Deployment, now `status: "removed"` with `removedAt` (kept as history), with `success` and `deploymentId` as deploy answers; the workflow's `activeVersionId` is cleared when no active deployment is left. `environment` names a project environment in place of `connectionId`; a takedown from a protected environment (named either way) needs the admin or owner role and is audited with the environment and version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeployResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token`; forbidden: the environment is protected and the caller is below admin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: `environment` names no environment of the project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the workflow is not deployed on this connection, or the environment is bound to no connection */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: neither `connectionId` nor `environment` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's deploy limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    draftTest: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ir?: unknown;
                    mocks?: {
                        [key: string]: unknown;
                    };
                    params?: unknown;
                    timeoutSeconds?: number | null;
                    usePinned?: boolean | null;
                };
            };
        };
        responses: {
            /** @description As the version test: `{status, output, error, steps, logs, durationMs, pinned}`. `ir` is checked as a version submission is but not stored (no version, deployment, run, worker or Workflow is left behind). `mocks` maps node ids to outputs those steps answer instead of running; the workflow's pinned outputs (`GET …/pinned-outputs`) answer for the nodes `mocks` does not name, unless `usePinned` is `false`; `pinned` lists the nodes they answered for (their steps show as `mocked`). A pin of a node the IR lacks, or of a node that is not a step of its own, is left out. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; invalid_ir: the IR does not validate (every problem, with its path); bad_request: the workflow is a function (invoke it instead); deploy_failed: a variable or secret the IR needs is not set */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 9 MiB; payload_too_large: a body over 9 MB, or `params` over 100 KB serialized */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: `ir` missing or not an object, `mocks` naming a node the IR lacks or one that is not a step, `timeoutSeconds` out of 1–600 (the path of each) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's deploy limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_unavailable: the server runs without the local edge (`--no-edge`) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    trigger: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: string;
                    environment?: string;
                    /** @description The run's params (at most 100 KB serialized); {instanceId, eventType, payload} delivers an event to a waiting run. */
                    params?: Record<string, unknown>;
                    queue?: boolean;
                };
            };
        };
        responses: {
            /** @description `{id, instanceId, status: "queued"}`: the new run. When `params` hold `instanceId`, `eventType` and `payload`, the event is delivered to that waiting run instead: 202 with the run's `{id, instanceId, status, eventType}`. When the workflow's `deployConfig.concurrency` or `rateLimit` refuses a run now and the request says `queue: true`, the run is stored held: 201 with `statusDetail: "held"`; it starts when the limits allow. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; bad_request: the workflow is a function (call its url instead) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach; not_found: an event's `instanceId` names no run of the workflow */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the workflow is not deployed on this connection, or an event is sent to a finished run */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB; payload_too_large: `params` over 100 KB serialized */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: also: an event's `eventType` is `edgeflow-admission` (any case), reserved for edgeflow's admission of cron starts (path `/params/eventType`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent; rate_limited: the workflow's `deployConfig.concurrency` or `rateLimit` refuses a run now (without `queue: true`); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the request (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    triggerSecret: {
        parameters: {
            query: {
                /** @description The connection whose provider account is read. */
                connectionId: string;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{url, secret, timestampHeader, signatureHeader, signature, windowSeconds, viaEdgeflow}`, with `Cache-Control: no-store`: how to sign calls to the public trigger. `url` is the worker's, or, when the workflow has flow control (`deployConfig.concurrency` or `rateLimit`; `viaEdgeflow: true`), edgeflow's `POST …/signed-trigger`, which applies it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerSecret"];
                };
            };
            /** @description bad_request: the workflow is a function (its url is public already) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: not deployed on this connection, or deployed without `deployConfig.publicTrigger` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: no `connectionId` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    triggerBatch: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: string;
                    environment?: string;
                    queue?: boolean;
                    runs?: {
                        id?: string;
                        params?: unknown;
                    }[];
                };
            };
        };
        responses: {
            /** @description `{created: [{index, id, instanceId, statusDetail?}], errors: [{index, code, message, retryAfter?}]}`, each entry of `runs` by its index in one of the two lists. The request is `{connectionId, runs: [{params, id?}], queue?}`: `params` as the trigger's (a JSON object of at most 100 KB, `{}` when omitted; an event-shaped object starts a run, it delivers no event); `id` the instance id to create the run with (1 to 100 letters, digits, `-` and `_`; the run's own id is edgeflow's). An entry is refused with `validation_failed` (bad params or id, an id named twice), `payload_too_large` (params over 100 KB), `conflict` (an id a run of the workflow or an instance already has) or `provider_error`; the others are created. Creates are paced to the provider's creation rate (the connection plan's: 100/s per Workflow, 300/s per account on Paid), and a batch the provider answers 429 is sent again after its `Retry-After`. The workflow's flow control (`deployConfig.concurrency` and `rateLimit`) applies to each entry in order as to a single trigger: an entry over a limit is an error `rate_limited` with `retryAfter` (seconds), or, when the request says `queue: true`, created held (`statusDetail: "held"` in its `created` entry; it starts when the limits allow). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchTriggerResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; bad_request: the workflow is a function */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: `connectionId` names no connection the project may use; the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the workflow is not deployed on this connection */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 11 MiB; payload_too_large: the body over 11 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: no `connectionId`; `runs` empty or over 100 entries */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent; rate_limited: the creation rate stayed taken while the request waited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_error: the provider refused the whole batch (`provider_unavailable`: it could not be reached) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    versionList: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                /** @description Items per page (1 to 100 unless the route says otherwise). */
                limit?: number;
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: [VersionSummary], nextCursor}`, highest number first. A VersionSummary is `{id, workflowId, version, locked, nodeTypes, createdBy, createdAt}` (`nodeTypes`: the marketplace nodes the IR uses). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Version"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description bad_request: `cursor` belongs to another list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `limit` is not an integer from 1 to 100, or `cursor` is not one this server made */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    versionSubmit: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ir?: components["schemas"]["IR"];
                };
            };
        };
        responses: {
            /** @description The VersionSummary of the new version. The stored IR has its defaults filled in and `metadata.version` set to the version's number. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Version"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; invalid_ir: the IR fails validation; `details` hold one entry per problem: `{path, message, nodeId?, rule}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 8 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path; validation_failed: also: step code or `triggerCode` that does not parse (`details`: `{path, message, nodeId?, field, line, column}`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    versionGet: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version: the VersionSummary's fields plus `ir` (with its defaults filled in) and `code` (the generated TypeScript). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionDetail"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    versionDelete: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description conflict: the version is locked, deployed, or the workflow's current version (`currentVersionId`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    versionUpdate: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    locked?: boolean | null;
                };
            };
        };
        responses: {
            /** @description The VersionSummary. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Version"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    versionExport: {
        parameters: {
            query?: {
                /** @description The export's format, which must be given: wrangler (a Cloudflare Workers project). */
                format?: "wrangler";
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A gzipped tar (`Content-Disposition: attachment; filename="<name>-v<number>-wrangler.tar.gz"`) of `wrangler.jsonc` (name, main, compatibility date and flags as edgeflow deploys them, the Workflow binding, KV/D1/R2 bindings with their ids marked `FILL-IN`, `vars` by name, cron `triggers`), `src/` (the generated TypeScript), `package.json` (the version's dependencies, `wrangler` as a dev dependency), `README.md` (the secrets to set with `wrangler secret put`, how to deploy and to start a run) and `.gitignore`. It holds no value of a variable or secret. docs/export.md. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            /** @description invalid_ir: the version no longer validates (a marketplace node it uses was uninstalled) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `read` scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `format` missing or not `wrangler` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    versionRevert: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The VersionSummary of the new version, which holds the reverted version's IR; the reverted version is unchanged. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Version"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `write` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's write limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    versionTest: {
        parameters: {
            query?: {
                /** @description With a session: the organization to act in instead of the active one. */
                organizationId?: string;
                /** @description With a session: the project to act in instead of the active one. */
                projectId?: string;
            };
            header?: {
                /** @description With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404. */
                "X-Edgeflow-Project"?: string;
            };
            path: {
                workflowId: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    mocks?: {
                        [key: string]: unknown;
                    };
                    params?: unknown;
                    timeoutSeconds?: number | null;
                };
            };
        };
        responses: {
            /** @description `{status, output, error, steps, logs, durationMs}` when the run ends (`complete`, `errored`, or `terminated` after `timeoutSeconds`, default 120, at most 600), also for a run that errored: `error` is `null` when it completed; `steps` as in a run's detail, a mocked step with state `mocked`; `logs` `[{timestamp, level, message}]`. `mocks` maps node ids to outputs that those steps answer instead of running. The run uses a temporary worker and Workflow in the organization's local edge account (binding the KV, D1 and R2 a local deployment binds) and leaves no workflow, deployment, run, worker or Workflow behind. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestResult"];
                };
            };
            /** @description bad_request: the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`; bad_request: the workflow is a function (invoke it instead); deploy_failed: a variable or secret the version needs is not set */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: no credentials, or an unknown, revoked or expired API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: an API key without the `deploy` scope; a caller whose role in the organization is below `member` (for an API key: its creator's current role); a session request without the session's CSRF token in `X-CSRF-Token` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the record in the path does not exist, or belongs to another organization or project; or `organizationId` or `projectId` names an organization or project the caller cannot reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB; payload_too_large: `params` over 100 KB serialized */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: the user's deploy limit or the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_unavailable: the server runs without the local edge (`--no-edge`) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{status: "ok"}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics in the Prometheus text format (docs/operations.md lists them). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{status: "ok", database: "ok", edge: "ok"|"off"}` (`edge` is `off` when serve runs without a local edge). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description rate_limited: the per-IP limit is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unavailable: the database or the edge does not answer: `{status: "unavailable", database: "ok"|"down", edge: "ok"|"down"|"off", error, code, details, requestId}`, with `Retry-After` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
}
