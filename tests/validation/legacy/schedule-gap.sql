BEGIN TRANSACTION;
CREATE TABLE done (study INTEGER NOT NULL, snapshot INTEGER NOT NULL,
    replay_seconds REAL NOT NULL, solve_seconds REAL NOT NULL, PRIMARY KEY (study, snapshot));
INSERT INTO "done" VALUES(1,0,5.33162089998313604155e-02,4.22074109999357460765e-02);
INSERT INTO "done" VALUES(1,1,1.53049330001522321254e-02,3.19862689998444693628e-02);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO "meta" VALUES('format','planner.schedule-gap-study/1');
CREATE TABLE rows (study INTEGER NOT NULL, snapshot INTEGER NOT NULL, jobs INTEGER NOT NULL, machines INTEGER NOT NULL, status TEXT NOT NULL, opt_delayed INTEGER, opt_makespan INTEGER, delayed_bound INTEGER, makespan_bound INTEGER, optimum_violations INTEGER NOT NULL, policy TEXT NOT NULL, delayed INTEGER NOT NULL, makespan INTEGER NOT NULL, violations INTEGER NOT NULL, first_violation TEXT,
    UNIQUE (study, snapshot, policy));
INSERT INTO "rows" VALUES(1,0,4,2,'optimal',0,1472,0,1472,0,'fcfs',0,2022,0,NULL);
INSERT INTO "rows" VALUES(1,0,4,2,'optimal',0,1472,0,1472,0,'easy',0,2022,0,NULL);
INSERT INTO "rows" VALUES(1,1,4,2,'optimal',0,1100,0,1100,0,'fcfs',0,1100,0,NULL);
INSERT INTO "rows" VALUES(1,1,4,2,'optimal',0,1100,0,1100,0,'easy',0,1100,0,NULL);
CREATE TABLE study (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, spec TEXT NOT NULL,
    version TEXT NOT NULL, created TEXT NOT NULL);
INSERT INTO "study" VALUES(1,'{"kind": "schedule-gap", "spec": {"interarrival": 40.0, "jobs": 4, "machines": 2, "policies": ["fcfs", "easy"], "seed": 0, "snapshots": 2, "threads": 1, "time_limit": 30.0}, "version": "0.1.0"}','{"interarrival": 40.0, "jobs": 4, "machines": 2, "policies": ["fcfs", "easy"], "seed": 0, "snapshots": 2, "threads": 1, "time_limit": 30.0}','0.1.0','2026-11-25T12:37:12+00:00');
COMMIT;
