"""The reference FSRS optimizer (fsrs[optimizer], version 6) on review histories given on
standard input, for FSRSOptimizerTests:

  {"cards": [[[milliseconds, rating], ...], ...], "weights": [21 numbers]}

prints {"reference": [its fitted weights], "referenceLoss": their log loss, "weightsLoss":
the log loss of the weights given, "defaultLoss": the default weights' log loss}, every loss
by the reference's own _compute_batch_loss.

  scripts/optimizer-python scripts/fsrs-optimizer-oracle.py < histories.json
"""
import json
import sys
from datetime import datetime, timedelta, timezone

from fsrs import Optimizer, Rating, ReviewLog
from fsrs.scheduler import DEFAULT_PARAMETERS

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
data = json.load(sys.stdin)
logs = [
    ReviewLog(card_id=index + 1, rating=Rating(rating), review_datetime=EPOCH + timedelta(milliseconds=ms), review_duration=None)
    for index, reviews in enumerate(data["cards"])
    for ms, rating in reviews
]
optimizer = Optimizer(logs)
reference = optimizer.compute_optimal_parameters()
print(json.dumps({
    "reference": list(reference),
    "referenceLoss": optimizer._compute_batch_loss(parameters=list(reference)),
    "weightsLoss": optimizer._compute_batch_loss(parameters=data["weights"]),
    "defaultLoss": optimizer._compute_batch_loss(parameters=list(DEFAULT_PARAMETERS)),
}))
