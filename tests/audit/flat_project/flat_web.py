"""The web side: it imports the forgotten module and sends its task, which a worker of flat_app never registers."""
from flat_forgotten import forgotten


def signup():
    return forgotten.delay()
