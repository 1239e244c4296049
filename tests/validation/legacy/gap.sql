BEGIN TRANSACTION;
CREATE TABLE done (
    study INTEGER NOT NULL REFERENCES study(id), instance INTEGER NOT NULL,
    rows INTEGER NOT NULL, errors INTEGER NOT NULL, PRIMARY KEY (study, instance));
INSERT INTO "done" VALUES(1,0,2,0);
INSERT INTO "done" VALUES(1,1,2,0);
CREATE TABLE error_instance (
    study INTEGER NOT NULL REFERENCES study(id), instance INTEGER NOT NULL,
    text TEXT NOT NULL, PRIMARY KEY (study, instance));
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO "meta" VALUES('format','planner.study/1');
CREATE TABLE rows (study INTEGER NOT NULL, instance INTEGER NOT NULL, geometry TEXT NOT NULL, job TEXT NOT NULL, algorithm TEXT NOT NULL, family TEXT NOT NULL, instance_seed INTEGER NOT NULL, instance_name TEXT NOT NULL, criterion TEXT NOT NULL, nodes INTEGER NOT NULL, slots INTEGER NOT NULL, found INTEGER NOT NULL, value REAL, start INTEGER, cost INTEGER, exact_status TEXT NOT NULL, exact_found INTEGER NOT NULL, exact_value REAL, exact_bound REAL, match INTEGER, gap REAL, verdict TEXT NOT NULL, exact_verdict TEXT NOT NULL, error TEXT, heuristic_seconds REAL NOT NULL, exact_seconds REAL NOT NULL,
    UNIQUE (study, instance, geometry, job, algorithm));
INSERT INTO "rows" VALUES(1,0,'rough','j1','amp','tiny',3757552657,'tiny seed=3757552657','min_start',3,6,1,13.0,13,20,'optimal',1,13.0,13.0,1,0.0,'','',NULL,2.76084000006449059583e-04,1.22266980001768388319e-02);
INSERT INTO "rows" VALUES(1,0,'rough','j2','amp','tiny',3757552657,'tiny seed=3757552657','min_start',1,8,1,5.0,5,8,'optimal',1,5.0,5.0,1,0.0,'','',NULL,2.29304999947999021969e-04,1.30986169999687263043e-02);
INSERT INTO "rows" VALUES(1,1,'rough','j1','amp','tiny',673228719,'tiny seed=673228719','min_start',3,8,0,NULL,NULL,NULL,'infeasible',0,NULL,NULL,NULL,NULL,'','',NULL,0.000247575000003053,6.40373199985333485528e-03);
INSERT INTO "rows" VALUES(1,1,'rough','j2','amp','tiny',673228719,'tiny seed=673228719','min_start',2,8,0,NULL,NULL,NULL,'infeasible',0,NULL,NULL,NULL,NULL,'','',NULL,2.30864000059227691963e-04,1.29107559998828946845e-02);
CREATE TABLE study (
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, params TEXT NOT NULL,
    version TEXT NOT NULL, created TEXT NOT NULL);
INSERT INTO "study" VALUES(1,'{"spec": {"algorithms": ["amp"], "family": "tiny", "geometries": [], "instances": 2, "params": {"jobs": 2}, "seed": 0, "solver": "cpsat", "threads": 1, "time_limit": null}, "version": "0.1.0"}','{"algorithms": ["amp"], "family": "tiny", "geometries": [], "instances": 2, "params": {"jobs": 2}, "seed": 0, "solver": "cpsat", "threads": 1, "time_limit": null}','0.1.0','2026-11-25T12:36:59+00:00');
COMMIT;
