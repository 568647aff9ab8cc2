package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/tenant"
)

// TaskType is the asynq task type that runs jobs of type jobType.
func TaskType(jobType string) string { return "job:" + jobType }

// Payload is what every job task carries: the job's id. Handlers read
// everything else from the Job row, so a retried task sees current state.
type Payload struct {
	JobID string `json:"job_id"`
	OrgID string `json:"org_id"`
}

// NewJob describes a job to create.
type NewJob struct {
	Type       string
	ProjectID  string
	TargetType job.TargetType
	TargetID   string
	ParentID   string
	Input      any
	Queue      string
}

// Start records a job and queues its task (task id = job id, so queueing
// twice runs it once). When the queue cannot take it the job is marked
// Failed and an Unavailable error returned.
func Start(ctx context.Context, db *ent.Client, q *Queue, nj NewJob) (*ent.Job, error) {
	c := db.Job.Create().SetType(nj.Type).SetStatus(job.StatusQueued)
	if nj.ProjectID != "" {
		c.SetProjectID(nj.ProjectID)
	}
	if nj.TargetType != "" {
		c.SetTargetType(nj.TargetType).SetTargetID(nj.TargetID)
	}
	if nj.ParentID != "" {
		c.SetParentID(nj.ParentID)
	}
	if nj.Input != nil {
		b, err := json.Marshal(nj.Input)
		if err != nil {
			return nil, err
		}
		c.SetInput(b)
	}
	j, err := c.Save(ctx)
	if err != nil {
		return nil, err
	}
	if err := Enqueue(ctx, q, j, nj.Queue); err != nil {
		_ = db.Job.UpdateOne(j).SetStatus(job.StatusFailed).SetCompletedAt(time.Now().UTC()).
			SetError(&jobstatus.Error{Code: "QUEUE_UNAVAILABLE", Message: "the job could not be queued"}).Exec(tenant.System(ctx))
		return nil, &apierr.Error{Kind: apierr.Unavailable, Detail: "the job queue is unavailable; try again shortly", Err: err}
	}
	return j, nil
}

// Enqueue queues the task of job j (again): harmless when it is queued.
func Enqueue(ctx context.Context, q *Queue, j *ent.Job, queue string) error {
	if queue == "" {
		queue = QueueDefault
	}
	b, _ := json.Marshal(Payload{JobID: j.ID, OrgID: j.OrgID})
	t := asynq.NewTask(TaskType(j.Type), b, asynq.TaskID(j.ID), asynq.Queue(queue), asynq.MaxRetry(25), asynq.Timeout(2*time.Hour))
	if err := q.Enqueue(ctx, t); err != nil {
		return fmt.Errorf("enqueue %s: %w", j.ID, err)
	}
	return nil
}

// Recover queues again every job that is not finished. The in-process
// Redis starts empty, so on start the embedded profile re-creates the tasks
// of jobs accepted before a restart; nothing accepted is lost.
func Recover(ctx context.Context, db *ent.Client, q *Queue) (int, error) {
	ctx = tenant.System(ctx)
	js, err := db.Job.Query().Where(job.StatusIn(job.StatusQueued, job.StatusStarted)).All(ctx)
	if err != nil {
		return 0, err
	}
	for _, j := range js {
		if err := Enqueue(ctx, q, j, ""); err != nil {
			return 0, err
		}
	}
	return len(js), nil
}
